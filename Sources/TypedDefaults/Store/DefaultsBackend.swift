import Foundation

/// Where a suite's values live: what a ``DefaultsStore`` keeps its suite in, for a store beyond
/// a plist file, such as a database that a fleet of machines shares.
///
/// ```swift
/// let store = DefaultsStore(backend: MyDatabaseBackend(suite: "fleet.limits"))
/// @UserDefault("maxConnections", store: store) var maxConnections = 100
/// ```
///
/// A backend stores property-list values per key (``DefaultsStoredValue``, keyed exactly by
/// ``DefaultsStoredKey``: a key is its Unicode scalars, not its normalization) and does three
/// things: it loads everything, commits a set of changes atomically (running a
/// read-modify-write of the freshest values inside the same commit), and tells the store when
/// something else changed its values. Everything else is the engine's and works the same on
/// every backend: the cache that reads come from, coherence between handles, observation,
/// rules, `didSet` callbacks, migrations and the ``Durability`` modes (a coalescing store calls
/// ``commit(_:before:edit:)`` at most once per window, off the
/// writer's thread; an immediate one on the writer's thread, which waits for it).
///
/// What the engine relies on:
/// - ``commit(_:before:edit:)`` is all or nothing, and
///   serialized with every other commit to the same suite, from any process or machine: two
///   commits that each add one to a value end two higher. When `edit` throws, nothing is stored, `changes` included.
/// - A backend never reports a value it cannot read as absent: ``load()`` throws, and the
///   engine serves defaults meanwhile and writes nothing over it.
/// - ``observeChanges(_:)`` calls its handler after others change the suite (a missed call
///   only delays what readers see until the next commit or change).
///
/// Check a backend with the `TypedDefaultsTestSupport` library's `DefaultsBackendConformance`,
/// which the library's own suites (a plist file, a `UserDefaults` object, memory), seen as
/// backends through ``DefaultsStore/backend``, pass too.
public protocol DefaultsBackend: Sendable {
    /// Names the suite in errors and in the process's registry of suites: a file's path, a
    /// database and a suite name. Stores made with backends of the same location share one
    /// state, as stores of one suite name do.
    var location: String { get }

    /// Every key and its value, as stored now.
    ///
    /// - Throws: When the values cannot be read; the engine reads defaults and tries again.
    func load() throws(DefaultsError) -> [DefaultsStoredKey: DefaultsStoredValue]

    /// One atomic commit: takes the freshest stored values, applies `changes` (`nil` removes a
    /// key), runs `edit` on the result, stores what differs from what was stored, and returns
    /// the values as they are after the commit. Waits for other writers until `deadline` at
    /// the latest, then throws.
    ///
    /// The deadline is an instant of the monotonic `ContinuousClock`: measure every wait against
    /// it (`ContinuousClock.now < deadline`), never against `Date()`, which moves when the
    /// machine's clock is stepped, so a wait measured by it can last any time.
    ///
    /// A backend may run `edit` more than once, on fresher values each time, when it retries a
    /// commit that failed for a passing reason (a lost connection, a server restarting): only
    /// the run whose commit is stored counts, and the engine's edits are made for that. A retry
    /// must not store a commit twice (when the answer to a commit was lost, find out whether it
    /// was stored before retrying it), and must end in a bound it documents (`deadline`, or a
    /// longer wait for a server that is restarting).
    ///
    /// - Parameters:
    ///   - changes: the values to store, by key; a `nil` value removes its key.
    ///   - deadline: when to stop waiting for other writers and throw.
    ///   - edit: runs on the freshest values with `changes` applied, and may change them further;
    ///     when it throws, nothing is stored.
    /// - Throws: What `edit` threw, with nothing stored; ``DefaultsError/writeFailed(path:underlying:)``
    ///   when the values could not be stored or another writer held them past `deadline`.
    func commit(
        _ changes: [DefaultsStoredKey: DefaultsStoredValue?], before deadline: ContinuousClock.Instant,
        edit: (inout [DefaultsStoredKey: DefaultsStoredValue]) throws(DefaultsError) -> Void
    ) throws(DefaultsError) -> [DefaultsStoredKey: DefaultsStoredValue]

    /// Starts calling `changed` each time something other than this backend's own commits may
    /// have changed the stored values (another process or machine); the store then loads them
    /// and tells its observers what changed. Called once, as the store's suite is first used
    /// (a read, a write, an observer signing up), with no lock of the store's held; a backend
    /// that cannot tell does nothing, and others' changes show after this process's next commit.
    ///
    /// `changed` returns at once and may be called from any thread at any time, even from inside
    /// this backend's own ``load()`` or right after its
    /// ``commit(_:before:edit:)``, on the thread the store called
    /// it on: the store loads on another thread once its call has returned, gathering calls that
    /// come while a load is due into one. A call from inside ``load()``
    /// itself is dropped, since that load is reading the values.
    func observeChanges(_ changed: @escaping @Sendable () -> Void)

    /// Refuses a value the backend could never store (a key or value beyond its limits) as it
    /// is written, before the store's cache shows it: the write is not made, and the error goes
    /// to ``DefaultsError/handler``. A change refused only at commit would be retried for ever
    /// and hold back every other change. The default accepts every value; a backend with limits
    /// still refuses values over them in
    /// ``commit(_:before:edit:)``, where `edit` may make them.
    ///
    /// ```swift
    /// func check(_ value: DefaultsStoredValue, forKey key: DefaultsStoredKey) throws(DefaultsError) {
    ///     if key.name.utf8.count > 200 { throw .encodingFailed(key: key.name, underlying: KeyTooLong()) }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - value: the value being written.
    ///   - key: the key it is written under.
    func check(_ value: DefaultsStoredValue, forKey key: DefaultsStoredKey) throws(DefaultsError)

    /// The administrator's layer the backend keeps beside the suite's values (a fleet's
    /// administrator table), or `nil` when it keeps none: defaults under each user's own values,
    /// and keys no user may write (see <doc:ManagedSettings>). Read at the suite's first use,
    /// before its values, and again each time ``observeChanges(_:)`` calls its handler, so a
    /// change of the layer is announced as a change of the values is. The default returns `nil`.
    ///
    /// The store enforces the layer; a backend shared by machines should also refuse a write
    /// of a locked key where it stores it, so that a program not using the store is refused too.
    ///
    /// - Throws: When the layer cannot be read: the store keeps the layer it read last (none
    ///   before the first read) and reads it again once a read of the values succeeds (a load,
    ///   a refresh, or a commit that gives the suite its first contents); a failure then is
    ///   reported, once until a read of the layer succeeds. While the values cannot be read
    ///   either, the layer's failure is not reported on its own.
    func loadAdministration() throws(DefaultsError) -> DefaultsBackendAdministration?
}

/// An administrator's defaults and locks that a ``DefaultsBackend`` keeps for its suite, which
/// ``DefaultsBackend/loadAdministration()`` returns.
///
/// ```swift
/// DefaultsBackendAdministration(
///     source: "postgres://db.internal/app typed_defaults_admin",
///     defaults: ["updateChannel": .string("stable")], lockedKeys: ["telemetry"], lockedPrefixes: ["net."])
/// ```
public struct DefaultsBackendAdministration: Sendable, Hashable {
    /// What errors and ``DefaultsValueSource`` name as where the layer is kept.
    public var source: String
    /// The administrator's value of each key: the default under the user's own value, or the
    /// value a lock fixes.
    public var defaults: [DefaultsStoredKey: DefaultsStoredValue]
    /// Keys that read the administrator's value (else the code's default) and refuse every write.
    public var lockedKeys: Set<DefaultsStoredKey>
    /// Locks every key that begins with one of these, scalar for scalar; `""` locks every key.
    public var lockedPrefixes: [String]

    public init(
        source: String, defaults: [DefaultsStoredKey: DefaultsStoredValue] = [:],
        lockedKeys: Set<DefaultsStoredKey> = [], lockedPrefixes: [String] = []
    ) {
        self.source = source
        self.defaults = defaults
        self.lockedKeys = lockedKeys
        self.lockedPrefixes = lockedPrefixes
    }
}

extension DefaultsBackend {
    /// Accepts every value.
    ///
    /// - Parameters:
    ///   - value: the value being written.
    ///   - key: the key it is written under.
    public func check(_ value: DefaultsStoredValue, forKey key: DefaultsStoredKey) throws(DefaultsError) {}

    /// No administrator's layer: the suite is read as the user's values and the code's defaults.
    public func loadAdministration() throws(DefaultsError) -> DefaultsBackendAdministration? { nil }
}
