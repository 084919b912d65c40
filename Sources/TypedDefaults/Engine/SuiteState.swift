import Foundation
import TypedDefaultsStorage

/// The one state a process keeps for a suite, shared by every handle on it.
///
/// It holds a slot per key (the stored object and its last decode), the changes not yet made
/// durable, and the backend that makes them so. A write through any handle updates the slot
/// under the lock, so the very next read of any handle, on any thread, sees it.
// The engine is this class and its extensions, each a part with a name: reads and writes here;
// loading the suite on first use in SuiteState+Loading.swift; commits and retries in
// SuiteState+Commits.swift; taking in other processes' changes in SuiteState+Reload.swift;
// observers signing up in SuiteState+Observers.swift; updates that nest in Transaction.swift;
// keeping a suite within its size limit in SuiteState+Size.swift; an administrator's defaults,
// locks and bounds in SuiteState+Managed.swift; the pending changes, the
// commit retries and the load retries are types of their own (PendingChanges.swift) whose state
// is private to them.
//
// @unchecked Sendable is sound: `slots`, `stored`, `sizeInBytes`, `hasLoaded`, `pending`,
// `retries`, `loads`, `transaction`, `managed` and `administrationRead`, and every slot's fields, are only touched while holding `lock` (which is
// also why they skip Swift's dynamic exclusivity checks, measured at an eighth of a write); a
// transaction's own fields only by the thread that runs it; `commits` serializes commits; the
// backend and the observers are Sendable.
//
// Every wait is bounded: `commits` for as long as the cross-process lock (a thread stuck in
// an update's body cannot hang a flush or exit), the file lock by the backend. An update or
// flush called from inside an update's body, on its own thread, joins that update's commit
// (`transaction`) instead of waiting for a lock its thread holds.
//
// Problems met while a lock is held (a corrupt file found on loading), and `didSet` callbacks
// due, are collected in an `AfterUnlock` local to the call and handled by it once it holds no
// lock, so that an error handler or callback that uses the same suite cannot deadlock, and each
// runs on the thread whose call met it.
@usableFromInline final class SuiteState: @unchecked Sendable {
    let backend: any StoreBackend
    /// The suite's file, or its label: what errors name.
    let location: String
    /// The suite's plist file, where the engine manages it (Linux).
    let fileURL: URL?
    /// A number no other state of this process has, before or after: what a typed key's
    /// cached bindings are told apart by (see `BindingCache`).
    @usableFromInline let serial: UInt64
    /// Whether the state lives as long as the process: every suite but an in-memory store.
    let isPermanent: Bool
    /// The backend's ``StoreBackend/commitsOnSchedule``, fetched once: every write asks.
    let commitsOnSchedule: Bool
    /// The backend's check of each write, fetched once: `nil` for the engine's own backends.
    let refusal: (@Sendable (_ object: StoredObject, _ key: DefaultsStoredKey) -> DefaultsError?)?
    @usableFromInline let lock = SuiteLock()
    /// 1 once a test in this process isolates suites (``IsolatedSuites``); never for a test's
    /// copy of a suite.
    @usableFromInline let isolation = AtomicWord(0)
    /// For a test's copy of a suite, the bindings made for it from the suite's own.
    let copyBindings: CopyBindings?
    /// Serializes this process's commits of the suite.
    let commits: CommitLock
    @exclusivity(unchecked) var slots: [DefaultsStoredKey: KeySlot] = [:]
    /// The backend's contents as last loaded or committed, for backends that load whole.
    /// Taken in whole, they change the suite's size in ways no write counted.
    @exclusivity(unchecked) var stored: [DefaultsStoredKey: StoredObject]? {
        didSet { sizeInBytes = nil }
    }
    /// The suite's size as Apple platforms would store it, estimated, pending writes included;
    /// `nil` until a write counts it (see SuiteState+Size.swift).
    @exclusivity(unchecked) var sizeInBytes: Int?
    /// Whether the suite has been loaded, or taken in from a commit: set under `lock` and never
    /// cleared, which ``withLoadedLock(_:)`` relies on.
    @exclusivity(unchecked) var hasLoaded = false
    @exclusivity(unchecked) var pending = PendingChanges()
    @exclusivity(unchecked) var retries = CommitRetries()
    @exclusivity(unchecked) var loads = LoadRetries()
    /// The update running on some thread, which nested updates and flushes on that thread join.
    @exclusivity(unchecked) var transaction: Transaction?
    var nextCallbackOrder: UInt64 = 0
    /// Who to tell about changes; enqueued to under `lock`, so in the order changes happen.
    let observers: SuiteObservers
    /// Whether the backend's changes are heard yet: from the suite's first use on, see
    /// ``startObserving()``.
    @exclusivity(unchecked) var isObserving = false
    /// Where the suite's administrator's defaults, locks and bounds come from; `nil` for a suite
    /// no administrator can manage (an in-memory store).
    let administration: AdministrationSource?
    /// The administrator's layer, `nil` when there is none: see SuiteState+Managed.swift.
    @exclusivity(unchecked) var managed: ManagedLayer?
    /// Whether the administrator's layer has been read once (or its first read failed).
    @exclusivity(unchecked) var administrationRead = false
    /// Serializes reading the administrator's layer and installing what it gives, so an older
    /// read never replaces a newer one; holds what a backend's reads found.
    let administrationReads = Locked(AdministrationReads())

    private static let serials = Locked<UInt64>(0)

    init(
        backend: any StoreBackend, label: String, fileURL: URL? = nil, isPermanent: Bool = true, isCopy: Bool = false,
        administration: AdministrationSource? = nil
    ) {
        self.backend = backend
        self.administration = administration
        if case .given(let layer) = administration {
            managed = layer.isEmpty ? nil : layer
            administrationRead = true
        }
        copyBindings = isCopy ? CopyBindings() : nil
        refusal = backend.refusal
        commitsOnSchedule = backend.commitsOnSchedule
        self.isPermanent = isPermanent
        self.fileURL = fileURL
        location = fileURL?.path ?? label
        commits = CommitLock(location: fileURL?.path ?? label)
        serial = Self.serials.withLock { serial in
            serial += 1
            return serial
        }
        observers = SuiteObservers(label: label)
        if !isCopy { IsolationSwitch.register(self) }
    }

    /// Whether a test's copy may stand for the suite: see ``IsolatedSuites``. Inlined: a load.
    @inlinable var mayBeIsolated: Bool {
        isolation.load() != 0
    }

    /// Marks the suite as one a test's copy may stand for: from now on its reads take the
    /// lock and find no cached value, so they go the way that looks for a copy.
    func markMayBeIsolated() {
        lock.withLock {
            isolation.store(1)
            for slot in slots.values { slot.snapshot.disable() }
        }
    }

    /// Empties the slots, which typed keys may still hold through their cached bindings: what
    /// they keep of a released in-memory store is a few empty objects, not its values.
    deinit {
        if copyBindings == nil { IsolationSwitch.unregister(self) }
        for slot in slots.values {
            slot.object = nil
            slot.clearCache()
        }
        observers.removeAll()
    }

    /// The slot for `key`, created on first use and shared from then on. With `declaring`, a
    /// typed key's value type: one name used with two types in one suite is reported.
    func slot(for key: String, declaring type: Any.Type? = nil) -> KeySlot {
        var conflict: DefaultsError?
        defer { if let conflict { DefaultsError.report(conflict) } }
        let storedKey = DefaultsStoredKey(key)
        return lock.withLock {
            let slot = slotLocked(for: storedKey)
            if let type, !slot.declaredTypes.contains(where: { $0.id == ObjectIdentifier(type) }) {
                slot.declaredTypes.append((ObjectIdentifier(type), String(reflecting: type)))
                if slot.declaredTypes.count > 1 {
                    conflict = .keyTypeConflict(
                        key: key, types: [slot.declaredTypes[0].name, String(reflecting: type)])
                }
            }
            return slot
        }
    }

    /// Binds `didSet` callbacks to `slot`, each once however often its owner binds it: they run
    /// after every change of the key, on the thread that made it, once no lock is held.
    /// `replacing` swaps the function of a callback bound before, keeping its place in the order.
    func bind(
        _ callbacks: [(owner: AnyObject, call: (SlotChange) -> Void)], to slot: KeySlot, replacing: Bool,
        tracksObservation: Bool = false
    ) {
        guard !callbacks.isEmpty else { return }
        lock.withLock {
            for (owner, call) in callbacks {
                let id = ObjectIdentifier(owner)
                if let bound = slot.callbacks[id], bound.owner != nil {
                    if replacing {
                        slot.callbacks[id] = SlotCallback(
                            owner: owner, id: id, order: bound.order, tracksObservation: tracksObservation, call: call)
                    }
                } else {
                    nextCallbackOrder += 1
                    slot.callbacks[id] = SlotCallback(
                        owner: owner, id: id, order: nextCallbackOrder, tracksObservation: tracksObservation, call: call
                    )
                }
            }
        }
    }

    /// The outcome of a read.
    enum Read<Value> {
        case missing
        /// Decoded earlier; a failure was reported then.
        case cached(Result<Value, DefaultsError>)
        /// Decoded by this read; a failure has not been reported yet.
        case decoded(Result<Value, DefaultsError>)
    }

    /// What the cache holds for `slot` as `Value`: a value decoded (or written) since the slot
    /// last changed, or the knowledge that nothing is stored. Inlined into the caller, where
    /// `Value` is concrete: unspecialized, the result's type costs a runtime metadata lookup,
    /// several times the rest. Measured on a cached `Bool`: about 5 ns, against 20 ns with a dynamic
    /// cast of the cached box in place of the type comparison.
    @inlinable @inline(__always)
    func cached<Value>(_ slot: KeySlot, as type: Value.Type) -> CachedRead<Value> {
        if let snapshot = slot.snapshot.read(as: Value.self, identifiedBy: ObjectIdentifier(Value.self)) {
            return snapshot
        }
        return cachedLocked(slot, as: Value.self)
    }

    /// What `slot`'s snapshot says, without the lock. Through the state, where the slot is an
    /// argument: read as the binding's property, its snapshot was retained around the read.
    @inlinable @inline(__always)
    func snapshot<Value>(of slot: KeySlot, as type: Value.Type, identifiedBy identifier: ObjectIdentifier)
        -> CachedRead<Value>?
    {
        slot.snapshot.read(as: Value.self, identifiedBy: identifier)
    }

    /// ``cached(_:as:)`` where the snapshot cannot answer. Specialized, but kept out of line
    /// so that the lock-free path stays small where it is inlined.
    @inlinable @inline(never)
    func cachedLocked<Value>(_ slot: KeySlot, as type: Value.Type) -> CachedRead<Value> {
        lock.lock()
        defer { lock.unlock() }
        if mayBeIsolated { return .unknown }
        if slot.isKnownEmpty { return .nothingStored }
        guard let value = slot.cachedValue(as: Value.self) else { return .unknown }
        return .value(value)
    }

    /// The cached value, for a value the snapshot cannot hold, read under the lock and
    /// inlined into the caller: such a read then makes no call but the value's own retain.
    /// With no value, whether the cache knows that nothing is stored.
    @inlinable @inline(__always)
    func cachedValueUnderLock<Value>(_ slot: KeySlot, as type: Value.Type, identifiedBy identifier: ObjectIdentifier)
        -> (value: Value?, isNothingStored: Bool)
    {
        lock.lock()
        defer { lock.unlock() }
        if mayBeIsolated { return (nil, false) }
        if let value = slot.cachedValue(as: Value.self, identifiedBy: identifier) { return (value, false) }
        return (nil, slot.isKnownEmpty)
    }

    /// Reads `slot` as `Value`: from the cache when nothing changed since the last decode.
    func read<Value: DefaultsValueConvertible>(_ slot: KeySlot, as type: Value.Type) -> Read<Value> {
        var after = AfterUnlock()
        defer { after.run() }
        typealias Found = (
            cached: Result<Value, DefaultsError>?, reportDue: Bool, object: StoredObject?, generation: UInt64
        )
        let found: Found = withLoadedLock {
            if let cached = slot.cachedResult(as: Value.self) {
                // A failure only thrown so far (by `load()`) is this read's caller's to report.
                let reportDue = slot.failureUnreported
                slot.failureUnreported = false
                return (cached, reportDue, nil, 0)
            }
            let object = objectInForce(slot, &after)
            // Not when the backend could not be read: the next read tries again.
            // Nor under an administrator's range, whose default in force the binding caches.
            if object == nil, slot.isLoaded, slot.managed?.bound == nil { slot.cacheNothingStored() }
            return (nil, false, object, slot.generation)
        }
        if let cached = found.cached { return found.reportDue ? .decoded(cached) : .cached(cached) }
        guard let object = found.object else { return .missing }
        let generation = found.generation
        let result = Conversion.decode(object, as: Value.self, key: slot.key.name)
        lock.withLock {
            if slot.generation == generation, slot.isLoaded { slot.cache(result) }
        }
        return .decoded(result)
    }

    /// Whether a read that found nothing may store the key's initial value: the suite could be
    /// read, and no attempt since the slot last changed stored nothing.
    func mayStoreInitialValue(_ slot: KeySlot) -> Bool {
        lock.withLock { slot.isLoaded && !slot.initialValueNotStored && slot.managed?.lockedBy == nil }
    }

    /// Whether the administrator's layer lets `object` be stored as the slot's initial value.
    func admitsInitialValue(_ object: StoredObject, in slot: KeySlot) -> Bool {
        lock.withLock { slot.managed?.refusal(of: object, key: slot.key.name) == nil }
    }

    /// Records that storing the initial value stored nothing.
    func initialValueNotStored(_ slot: KeySlot) {
        lock.withLock { slot.initialValueNotStored = true }
    }

    /// Marks the failure cached for `slot` as thrown, not reported: the next read that falls
    /// back from it reports it.
    func leaveFailureUnreported(_ slot: KeySlot) {
        lock.withLock { slot.failureUnreported = slot.decodeFailed }
    }

    /// The backend's whole contents, this process's pending changes written first, read
    /// without the cross-process lock where the backend allows it and repairing nothing.
    func storedContents() throws(DefaultsError) -> [DefaultsStoredKey: StoredObject] {
        if lock.withLock({ !pending.isEmpty }) { try flush() }
        if let contents = try backend.readWholeWithoutLock() { return contents }
        var contents: [DefaultsStoredKey: StoredObject] = [:]
        try commitEdit(repairing: false) { edit in contents = edit.contents }
        return contents
    }

    /// Whether anything is stored under the slot's key.
    func hasObject(_ slot: KeySlot) -> Bool {
        storedObject(slot) != nil
    }

    /// The object stored under the slot's key, undecoded.
    func storedObject(_ slot: KeySlot) -> StoredObject? {
        var after = AfterUnlock()
        defer { after.run() }
        return withLoadedLock { loadedObject(slot, &after) }
    }

    /// Stores `object` (`nil` removes the key), caching `decoded` as its decode, and arranges for
    /// the change to become durable as `durability` says. A write that would take the suite past
    /// `sizeLimit` changes nothing and is reported. `objectSize` is `object`'s size, when the
    /// caller knows it from the value's type.
    func write(
        _ object: StoredObject?, objectSize: Int? = nil, caching decoded: CachedDecode?, to slot: KeySlot,
        durability: Durability, sizeLimit: DefaultsSizeLimit
    ) {
        // A value the backend could never store is not written: its commit would fail for ever.
        if let refusal, let object, let problem = refusal(object, slot.key) {
            DefaultsError.report(problem)
            return
        }
        var after = AfterUnlock()
        defer { after.run() }
        let window = withLoadedLock {
            writeLocked(
                object, objectSize: objectSize, caching: decoded, to: slot, durability: durability,
                sizeLimit: sizeLimit, &after)
        }
        if window != nil { flush(when: window) }
    }

    /// ``write(_:objectSize:caching:to:durability:sizeLimit:)`` of `value`, a property-list
    /// object of `objectSize` bytes that is valid whatever its value (an `Int`, a `String`).
    /// Where nothing else holds the slot's object and no one hears of the change, the object's
    /// box takes the new value, and the write allocates nothing.
    func write(
        ownObject value: Any, objectSize: Int, caching decoded: CachedDecode, to slot: KeySlot,
        durability: Durability, sizeLimit: DefaultsSizeLimit
    ) {
        // A backend with checks of its own sees the object as any write hands it over.
        guard refusal == nil else {
            write(
                StoredObject(value), objectSize: objectSize, caching: decoded, to: slot, durability: durability,
                sizeLimit: sizeLimit)
            return
        }
        var after = AfterUnlock()
        defer { after.run() }
        let window = withLoadedLock { () -> TimeInterval?? in
            // Anyone to hear of the change is handed the old object, and an administrator's
            // entry judges the new one: those writes go the common way.
            guard slot.managed == nil, slot.isLoaded, observers.isEmpty, slot.callbacks.isEmpty else {
                return writeLocked(
                    StoredObject(value), objectSize: objectSize, caching: decoded, to: slot, durability: durability,
                    sizeLimit: sizeLimit, &after)
            }
            guard let size = admit(newSize: objectSize, to: slot, within: sizeLimit, &after) else { return nil }
            let object = slot.object?.replaceUniquelyHeld(with: value) == true ? slot.object : StoredObject(value)
            return recordAdmitted(
                slot, to: object, sizeChange: size, caching: decoded, durability: durability, isHeard: false, &after)
        }
        if window != nil { flush(when: window) }
    }

    /// The body of a write, under `lock`: the flush due, as ``flush(when:)`` takes it.
    private func writeLocked(
        _ object: StoredObject?, objectSize: Int?, caching decoded: CachedDecode?, to slot: KeySlot,
        durability: Durability, sizeLimit: DefaultsSizeLimit, _ after: inout AfterUnlock
    ) -> TimeInterval?? {
        // An administrator's lock or bounds: nothing changes, and the user's value is kept.
        if let entry = slot.managed, let problem = entry.refusal(of: object, key: slot.key.name) {
            after.report(problem)
            return nil
        }
        let newSize = object.map { objectSize ?? StoredObject.size(of: $0.object) }
        guard let size = admit(newSize: newSize, to: slot, within: sizeLimit, &after) else { return nil }
        return recordAdmitted(slot, to: object, sizeChange: size, caching: decoded, durability: durability, &after)
    }

    /// Makes a write admitted: the slot changes, the backend hears of it, and it is pending.
    /// Under `lock`; returns the flush due. `isHeard` is `false` where the caller found no one
    /// to hear of the change (no observer, callback or administrator's entry): only the slot's
    /// share of the change is made.
    private func recordAdmitted(
        _ slot: KeySlot, to object: StoredObject?, sizeChange size: SizeChange, caching decoded: CachedDecode?,
        durability: Durability, isHeard: Bool = true, _ after: inout AfterUnlock
    ) -> TimeInterval?? {
        if isHeard {
            change(slot, to: object, origin: .thisProcess, sizeChange: size, caching: decoded, &after)
        } else {
            setObject(object, of: slot, sizeChange: size, caching: decoded)
        }
        backend.writeThrough(key: slot.key, object: object)
        markWritten(slot)
        guard commitsOnSchedule else { return nil }
        return pending.scheduleFlush(durability)
    }

    /// Removes every key the suite holds, as one change: observers and callbacks hear of each
    /// key that changes, and the removals are committed together, as `durability` says. A key
    /// another source still provides (a plain `UserDefaults` suite's registered or global
    /// values) takes the value it then reads as.
    func removeAll(durability: Durability) {
        var after = AfterUnlock()
        defer { after.run() }
        let window = withLoadedLock { () -> TimeInterval?? in
            // Unreadable: which keys it holds is unknown, and nothing is removed (reported).
            guard loadSuite(&after) else { return nil }
            let keys = knownKeys()
            // A locked key's value is the user's to keep: removing everything is refused whole.
            if managed != nil {
                for key in keys.sorted() {
                    let slot = slotLocked(for: key)
                    if let lockedBy = slot.managed?.lockedBy, loadedObject(slot, &after) != nil {
                        after.report(.locked(key: key.name, path: lockedBy))
                        return nil
                    }
                }
            }
            var changed = false
            for key in keys {
                let slot = slotLocked(for: key)
                guard let old = loadedObject(slot, &after) else { continue }
                backend.writeThrough(key: key, object: nil)
                let remaining = backend.object(forKey: key)
                if StoredObject.same(Optional(old), remaining) { continue }
                change(slot, to: remaining, origin: .thisProcess, &after)
                markWritten(slot)
                changed = true
            }
            guard changed, commitsOnSchedule else { return nil }
            return pending.scheduleFlush(durability)
        }
        flush(when: window)
    }

    /// Flushes as ``scheduleFlush(_:)`` decided: `nil`, nothing (a flush is already due, or
    /// the backend commits otherwise); `.some(nil)`, now; `.some(delay)`, after `delay`.
    func flush(when window: TimeInterval??) {
        switch window {
        case nil:
            break
        case .some(nil):
            flushReporting()
        case .some(let delay?):
            DispatchQueue.global().asyncAfter(deadline: .now() + delay) { self.flushReporting() }
        }
    }

    // MARK: Under `lock`

    /// Records a write of this process to `slot`: pending until committed, and, for a backend
    /// committed on a schedule, what the backend held before it, so an explicit refresh can tell
    /// a later outside write.
    func markWritten(_ slot: KeySlot) {
        markPending(slot)
        if commitsOnSchedule, slot.pendingBase == nil, let stored {
            slot.pendingBase = .some(stored[slot.key])
        }
    }

    func markPending(_ slot: KeySlot) {
        pending.mark(slot)
    }

    func slotLocked(for key: DefaultsStoredKey) -> KeySlot {
        if let slot = slots[key] { return slot }
        let slot = KeySlot(key: key)
        if mayBeIsolated { slot.snapshot.disable() }
        if let managed { slot.managed = managed.entry(for: key) }
        slots[key] = slot
        return slot
    }

    /// The slot's object, fetched from the backend on first use. When the backend cannot be
    /// read, `nil`, with the slot left unloaded so that the next use tries again.
    func loadedObject(_ slot: KeySlot, _ after: inout AfterUnlock) -> StoredObject? {
        if !slot.isLoaded {
            guard loadSuite(&after) else { return nil }
            slot.object = stored.map { $0[slot.key] } ?? backend.object(forKey: slot.key)
            slot.objectSize = nil
            slot.isLoaded = true
        }
        return slot.object
    }

    /// Every key the suite holds or this process has used: the loaded contents' (or, for a
    /// backend that reads key by key, its own list), and every slot's.
    func knownKeys() -> Set<DefaultsStoredKey> {
        Set(slots.keys).union(stored.map { Array($0.keys) } ?? backend.storedKeys())
    }

    /// The one place a slot's object changes for someone to hear: observers of the key hear of
    /// it, in order, and its `didSet` callbacks run once the lock is released. A write that
    /// knows the new object's decode passes it in `decoded`: cached at once, not cleared and
    /// then cached.
    func change(
        _ slot: KeySlot, to object: StoredObject?, origin: DefaultsChangeOrigin, sizeChange: SizeChange? = nil,
        caching decoded: CachedDecode? = nil, _ after: inout AfterUnlock
    ) {
        var hasObservers = !observers.isEmpty
        var callbacks = slot.liveCallbacks()
        // This process's change made without propagation: only observation tracking hears of it.
        if hasObservers || !callbacks.isEmpty, origin == .thisProcess, Propagation.isSuppressed {
            hasObservers = false
            callbacks = callbacks.filter(\.tracksObservation)
        }
        let isHeard = hasObservers || !callbacks.isEmpty
        // Loaded even with no one to tell: a refresh compares the backend with what was loaded.
        // The old object is copied only for someone to hear of it.
        let old = isHeard || !slot.isLoaded ? loadedObject(slot, &after) : nil
        setObject(object, of: slot, sizeChange: sizeChange, caching: decoded)
        guard isHeard else { return }
        var change = SlotChange(key: slot.key, oldObject: old, newObject: object, origin: origin)
        if let entry = slot.managed {
            // Heard as reads see it: a change of a locked key's user value changes nothing seen.
            let (oldSeen, newSeen) = (entry.inForce(old), entry.inForce(object))
            if StoredObject.same(oldSeen, newSeen) { return }
            change = SlotChange(
                key: slot.key, oldObject: oldSeen, newObject: newSeen, origin: origin, oldBound: entry.bound,
                newBound: entry.bound)
        }
        if hasObservers { observers.enqueue(change) }
        after.call(callbacks, with: change)
    }

    /// The slot's share of ``change(_:to:origin:sizeChange:caching:_:)``: its object, the
    /// suite's size, and the cache. A write that no one hears of makes only this change.
    @inline(__always)
    private func setObject(
        _ object: StoredObject?, of slot: KeySlot, sizeChange: SizeChange?, caching decoded: CachedDecode?
    ) {
        if let bytes = sizeInBytes {
            sizeInBytes =
                bytes + (sizeChange?.growth ?? StoredObject.sizeChange(slot.key, from: slot.object, to: object))
        }
        slot.object = object
        slot.objectSize = sizeChange?.objectSize
        slot.isLoaded = true
        slot.generation &+= 1
        slot.initialValueNotStored = false
        if object != nil, let decoded { slot.cache(decoded) } else { slot.clearCache() }
    }
}
