import Foundation
import TypedDefaultsStorage

/// Where `@UserDefault` values live: a suite, shared by every handle on it in the process.
///
/// ```swift
/// let store = try DefaultsStore(suiteName: "com.example.app")
/// @UserDefault("theme", store: store) var theme = Theme.system
///
/// @UserDefault("launchCount") var launchCount = 0                 // DefaultsStore.standard
/// @UserDefault("draft", store: .inMemory()) var draft = ""         // tests and previews
/// ```
///
/// - **Shared.** Every store value, wrapper and copy on one suite uses one state: a write
///   through any of them is seen by the very next read of all of them, on any thread.
/// - **Cached.** Reads return the decoded value kept from the last read or write; only a change
///   makes the next read touch storage and decode again.
/// - **Durable.** On Linux writes are gathered and written to the suite's plist file within
///   100 ms (see ``Durability``), at normal exit, and on ``flush()``: each time under a lock
///   shared with other processes, merging only the keys this process changed into the file's
///   current contents, and replacing the file atomically. A file that does not parse is moved
///   aside, never overwritten. On Apple platforms the store writes through `UserDefaults`,
///   which persists safely by itself.
public struct DefaultsStore: Sendable {
    /// The suite's state in this process.
    @usableFromInline let ownState: SuiteState
    /// When writes through this store reach the disk.
    @usableFromInline let durability: Durability
    /// How large writes through this store may make the suite.
    @usableFromInline let sizeLimit: DefaultsSizeLimit

    /// The same for every store of one suite in this process: what tools group a suite's keys by.
    package var suiteIdentity: ObjectIdentifier { ObjectIdentifier(ownState) }

    init(state: SuiteState, durability: Durability, sizeLimit: DefaultsSizeLimit = .platformDefault) {
        ownState = state
        self.durability = durability
        self.sizeLimit = sizeLimit
    }

    /// The state reads and writes use: the suite's own, or in a test isolated by the
    /// test-support library, the test's copy of it.
    @inlinable var state: SuiteState {
        let own = ownState
        return _slowPath(own.mayBeIsolated) ? IsolatedSuites.state(for: own) : own
    }

    /// The suite's plist file, where the store manages it (Linux); `nil` otherwise.
    public var fileURL: URL? {
        state.fileURL
    }

    /// The folder that holds the suites' files on Linux: `$XDG_CONFIG_HOME` when it is an
    /// absolute path, else `$HOME/.config`, as corelibs Foundation decides. A suite named
    /// `com.example.app` is `com.example.app.plist` there.
    ///
    /// ```swift
    /// let suites = try FileManager.default.contentsOfDirectory(atPath: DefaultsStore.preferencesFolder.path)
    /// ```
    public static var preferencesFolder: URL {
        PreferencesFolder.url
    }

    /// The standard suite: the one ``nameStandardSuite(_:)`` named, else the one
    /// `UserDefaults.standard` keeps, named on Linux after the bundle identifier or the process.
    public static let standard = StandardSuite.make()

    /// The suite named `suiteName`.
    ///
    /// ```swift
    /// let store = try DefaultsStore(suiteName: "com.example.app", durability: .immediate)
    /// ```
    ///
    /// - Parameters:
    ///   - suiteName: the suite's name, a plain file name such as `com.example.app`.
    ///   - durability: when writes reach the disk; `.coalesced` (within 100 ms) unless given.
    /// - Throws: ``DefaultsError/invalidSuiteName(_:reason:)`` for a name that is not a plain
    ///   file name (see ``Foundation/UserDefaults/suite(named:)``).
    public init(suiteName: String, durability: Durability = .coalesced) throws(DefaultsError) {
        if let reason = SuiteName.problem(with: suiteName) { throw .invalidSuiteName(suiteName, reason: reason) }
        switch SuiteStorage.current {
        case .plistFile:
            // Without a `UserDefaults`, which the store would only ask its name back: one costs
            // a process's start-up more than the rest of opening the suite (corelibs parses the
            // command line, and its name is found by reflection).
            self.init(fileSuite: suiteName, durability: durability)
        case .userDefaults:
            self.init(try UserDefaults.suite(named: suiteName), named: suiteName, durability: durability)
        }
    }

    /// The store of the suite named by a literal in the program, for declaring it once where
    /// it cannot throw:
    ///
    /// ```swift
    /// extension DefaultsStore {
    ///     static let appGroup = DefaultsStore(suite: "group.com.example.shared")
    /// }
    /// ```
    ///
    /// The name is checked as ``init(suiteName:durability:)`` checks it; a literal it refuses
    /// (empty, with a path separator or `..`, too long) is a programmer error, and this traps
    /// naming the problem. For a name that comes from input or configuration, use
    /// ``init(suiteName:durability:)``, which throws.
    ///
    /// - Parameters:
    ///   - name: the suite's name, as a literal; this traps if ``init(suiteName:durability:)`` would refuse it.
    ///   - durability: when writes reach the disk; `.coalesced` (within 100 ms) unless given.
    public init(suite name: StaticString, durability: Durability = .coalesced) {
        do {
            try self.init(suiteName: name.description, durability: durability)
        } catch {
            preconditionFailure("DefaultsStore(suite: \"\(name)\"): \(error)")
        }
    }

    /// The suite that `defaults` reads and writes, shared with every other handle on it.
    ///
    /// ```swift
    /// let store = DefaultsStore(UserDefaults(suiteName: "com.example.app")!)
    /// ```
    ///
    /// - Parameters:
    ///   - defaults: the `UserDefaults` object whose suite the store reads and writes.
    ///   - durability: when writes reach the disk; `.coalesced` (within 100 ms) unless given.
    public init(_ defaults: UserDefaults, durability: Durability = .coalesced) {
        if SuiteStorage.current == .plistFile, let suiteName = PreferencesFolder.suiteName(of: defaults) {
            self.init(fileSuite: suiteName, durability: durability)
            return
        }
        self.init(defaults, named: PreferencesFolder.anySuiteName(of: defaults), durability: durability)
    }

    /// The suite kept through `defaults`. Every store on one named suite shares one state, made
    /// over the first object; an object whose suite's name is not known has a state of its own.
    private init(_ defaults: UserDefaults, named suiteName: String?, durability: Durability) {
        let identity = suiteName.map(SuiteRegistry.Identity.named) ?? .defaults(ObjectIdentifier(defaults))
        let state = SuiteRegistry.state(
            for: identity, label: "defaults", administration: suiteName.flatMap(AdministrationSource.platform)
        ) {
            UserDefaultsBackend(defaults: SharedDefaults(defaults))
        }
        self.init(state: state, durability: durability)
    }

    /// The suite named `suiteName`, a name ``SuiteName`` allows, kept in its plist file.
    private init(fileSuite suiteName: String, durability: Durability) {
        let file = PreferencesFolder.file(forSuite: suiteName)
        let state = SuiteRegistry.state(
            for: .file(file.path), label: suiteName, fileURL: file, administration: .files(suite: suiteName)
        ) {
            PlistFileBackend(file: PlistFile(url: file), suiteName: suiteName)
        }
        self.init(state: state, durability: durability)
    }

    /// A store of its own that keeps values in memory and writes nothing to disk, for tests and
    /// previews. Each call makes a new, empty one; copies of it share its values.
    ///
    /// ```swift
    /// let store = DefaultsStore.inMemory()
    /// @UserDefault("onboarded", store: store) var onboarded = false
    /// ```
    public static func inMemory() -> DefaultsStore {
        DefaultsStore(
            state: SuiteRegistry.unlistedState(backend: MemoryBackend(), label: "memory"), durability: .immediate)
    }

    /// The same suite with writes made durable as `durability` says.
    ///
    /// ```swift
    /// @UserDefault("receipt", store: .standard.durability(.immediate)) var receipt = Data()
    /// ```
    public func durability(_ durability: Durability) -> DefaultsStore {
        DefaultsStore(state: ownState, durability: durability, sizeLimit: sizeLimit)
    }

    /// The same suite with writes through the store refused past `limit` (see
    /// ``DefaultsSizeLimit``); every store has ``DefaultsSizeLimit/iOS`` unless given another
    /// (``DefaultsSizeLimit/tvOS`` on tvOS and watchOS).
    ///
    /// ```swift
    /// static let tv = DefaultsStore(suite: "com.example.tv").sizeLimit(.tvOS)
    /// ```
    public func sizeLimit(_ limit: DefaultsSizeLimit) -> DefaultsStore {
        DefaultsStore(state: ownState, durability: durability, sizeLimit: limit)
    }

    /// Writes every change made in this process to disk now, and returns when they are there.
    ///
    /// ```swift
    /// settings.theme = .dark
    /// try DefaultsStore.standard.flush()
    /// ```
    ///
    /// - Throws: ``DefaultsError/writeFailed(path:underlying:)``; the changes are kept and
    ///   retried on the next flush, and by the store itself until a commit succeeds.
    public func flush() throws(DefaultsError) {
        try state.flush()
    }
}
