import Foundation

/// The one state a process keeps for a suite, shared by every handle on it.
///
/// It holds a slot per key (the stored object and its last decode), the changes not yet made
/// durable, and the backend that makes them so. A write through any handle updates the slot
/// under the lock, so the very next read of any handle, on any thread, sees it.
// @unchecked Sendable is sound: `slots`, `stored`, `hasLoaded`, `pendingSlots`, `flushScheduled`,
// `loadFailed` and `transaction`, and every slot's fields, are only touched while holding
// `lock` (which is also why they skip Swift's dynamic exclusivity checks, measured at an eighth
// of a write); a transaction's own fields only by the thread that runs it; `commits`
// serializes commits; the backend and the observers are Sendable.
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
    /// The backend's check of each write, fetched once: `nil` for the engine's own backends.
    private let refusal: (@Sendable (_ object: PropertyList, _ key: DefaultsStoredKey) -> DefaultsError?)?
    @usableFromInline let lock = SuiteLock()
    /// Serializes this process's commits of the suite.
    private let commits: CommitLock
    @exclusivity(unchecked) private var slots: [DefaultsStoredKey: KeySlot] = [:]
    /// The backend's contents as last loaded or committed, for backends that load whole.
    @exclusivity(unchecked) private var stored: [DefaultsStoredKey: PropertyList]?
    @exclusivity(unchecked) private var hasLoaded = false
    /// The slots whose objects are changes not yet committed (`KeySlot.isPending`), and some
    /// whose changes were dropped since. A list, not a dictionary by key: a write appends at
    /// most once per commit and hashes nothing.
    ///
    /// A pending change is always the slot's current object: a slot's object changes only by
    /// a write, which makes it pending, or by a commit, refresh or update, which hold
    /// `commits`. So a commit that fails, still holding `commits`, can put back what it took
    /// by marking the slots pending again.
    @exclusivity(unchecked) private var pendingSlots: [KeySlot] = []
    @exclusivity(unchecked) private var flushScheduled = false
    /// Whether the last commit on schedule failed and was reported: the failures after it are
    /// not, until one succeeds (a backend that is down fails every retry).
    @exclusivity(unchecked) private var failureReported = false
    /// Whether a retry of failed commits is due, and how long the next one waits.
    @exclusivity(unchecked) private var retryScheduled = false
    @exclusivity(unchecked) private var retryDelay = SuiteState.firstRetryDelay
    /// Retries of a failed commit wait 0.1 s, then twice as long each time, up to 5 s.
    static let firstRetryDelay: TimeInterval = 0.1
    static let lastRetryDelay: TimeInterval = 5
    /// Whether the last load could not read the backend (reported once until a load succeeds).
    @exclusivity(unchecked) private var loadFailed = false
    /// For a backend whose failed loads are slow: no load is tried before this, and the wait
    /// after the next failure.
    @exclusivity(unchecked) private var nextLoad: Date?
    @exclusivity(unchecked) private var loadDelay = SuiteState.firstLoadDelay
    /// A failed load of a program's backend is tried again after 0.5 s, then twice as long each
    /// time, up to every 15 s (a change it announces or a refresh loads at once).
    static let firstLoadDelay: TimeInterval = 0.5
    static let lastLoadDelay: TimeInterval = 15
    /// The update running on some thread, which nested updates and flushes on that thread join.
    @exclusivity(unchecked) private var transaction: Transaction?
    private var nextCallbackOrder: UInt64 = 0
    /// Who to tell about changes; enqueued to under `lock`, so in the order changes happen.
    let observers: SuiteObservers

    private static let serials = Locked<UInt64>(0)

    init(backend: any StoreBackend, label: String, fileURL: URL? = nil, isPermanent: Bool = true) {
        self.backend = backend
        refusal = backend.refusal
        self.isPermanent = isPermanent
        self.fileURL = fileURL
        location = fileURL?.path ?? label
        commits = CommitLock(location: fileURL?.path ?? label)
        serial = Self.serials.withLock { serial in
            serial += 1
            return serial
        }
        observers = SuiteObservers(label: label)
    }

    /// Empties the slots, which typed keys may still hold through their cached bindings: what
    /// they keep of a released in-memory store is a few empty objects, not its values.
    deinit {
        for slot in slots.values {
            slot.object = nil
            slot.clearCache()
        }
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

    /// What the cache knows of a slot, for the inlined fast path of a read.
    @usableFromInline enum Cached<Value> {
        case value(Value)
        /// Nothing is stored under the key, and nothing changed since a read found that out.
        case nothingStored
        /// Not decoded since the slot last changed, or decoded as another type, or unreadable.
        case unknown
    }

    /// What the cache holds for `slot` as `Value`: a value decoded (or written) since the slot
    /// last changed, or the knowledge that nothing is stored. Inlined into the caller, where
    /// `Value` is concrete: unspecialized, the result's type costs a runtime metadata lookup,
    /// several times the rest. Measured on a cached `Bool`: about 5 ns, against 20 ns with a dynamic
    /// cast of the cached box in place of the type comparison.
    @inlinable
    func cached<Value>(_ slot: KeySlot, as type: Value.Type) -> Cached<Value> {
        if let snapshot = slot.snapshot.read(as: Value.self) { return snapshot }
        return cachedLocked(slot, as: Value.self)
    }

    /// ``cached(_:as:)`` where the snapshot cannot answer. Specialized, but kept out of line
    /// so that the lock-free path stays small where it is inlined.
    @inlinable @inline(never)
    func cachedLocked<Value>(_ slot: KeySlot, as type: Value.Type) -> Cached<Value> {
        lock.withLock {
            if slot.isKnownEmpty { return .nothingStored }
            guard let value = slot.cachedValue(as: Value.self) else { return .unknown }
            return .value(value)
        }
    }

    /// Reads `slot` as `Value`: from the cache when nothing changed since the last decode.
    func read<Value: DefaultsValueConvertible>(_ slot: KeySlot, as type: Value.Type) -> Read<Value> {
        ensureLoaded()
        var after = AfterUnlock()
        defer { after.run() }
        typealias Found = (
            cached: Result<Value, DefaultsError>?, reportDue: Bool, object: PropertyList?, generation: UInt64
        )
        let found: Found = lock.withLock {
            if let cached = slot.cachedResult(as: Value.self) {
                // A failure only thrown so far (by `load()`) is this read's caller's to report.
                let reportDue = slot.failureUnreported
                slot.failureUnreported = false
                return (cached, reportDue, nil, 0)
            }
            let object = loadedObject(slot, &after)
            // Not when the backend could not be read: the next read tries again.
            if object == nil, slot.isLoaded { slot.cacheNothingStored() }
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
        lock.withLock { slot.isLoaded && !slot.initialValueNotStored }
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
    func storedContents() throws(DefaultsError) -> [DefaultsStoredKey: PropertyList] {
        if lock.withLock({ pendingSlots.contains { $0.isPending } }) { try flush() }
        if let contents = try backend.readWholeWithoutLock() { return contents }
        var contents: [DefaultsStoredKey: PropertyList] = [:]
        try commitEdit(repairing: false) { edit in contents = edit.contents }
        return contents
    }

    /// Whether anything is stored under the slot's key.
    func hasObject(_ slot: KeySlot) -> Bool {
        storedObject(slot) != nil
    }

    /// The object stored under the slot's key, undecoded.
    func storedObject(_ slot: KeySlot) -> PropertyList? {
        ensureLoaded()
        var after = AfterUnlock()
        defer { after.run() }
        return lock.withLock { loadedObject(slot, &after) }
    }

    /// Stores `object` (`nil` removes the key), caching `decoded` as its decode, and arranges for
    /// the change to become durable as `durability` says.
    func write(_ object: PropertyList?, caching decoded: CachedDecode?, to slot: KeySlot, durability: Durability) {
        // A value the backend could never store is not written: its commit would fail for ever.
        if let refusal, let object, let problem = refusal(object, slot.key) {
            DefaultsError.report(problem)
            return
        }
        ensureLoaded()
        var after = AfterUnlock()
        defer { after.run() }
        let window: TimeInterval?? = lock.withLock {
            change(slot, to: object, origin: .thisProcess, &after)
            if object != nil, let decoded { slot.cache(decoded) }
            backend.writeThrough(key: slot.key, object: object)
            markWritten(slot)
            guard backend.commitsOnSchedule else { return nil }
            return scheduleFlush(durability)
        }
        flush(when: window)
    }

    /// Removes every key the suite holds, as one change: observers and callbacks hear of each
    /// key that changes, and the removals are committed together, as `durability` says. A key
    /// another source still provides (a plain `UserDefaults` suite's registered or global
    /// values) takes the value it then reads as.
    func removeAll(durability: Durability) {
        ensureLoaded()
        var after = AfterUnlock()
        defer { after.run() }
        let window = lock.withLock { () -> TimeInterval?? in
            // Unreadable: which keys it holds is unknown, and nothing is removed (reported).
            guard loadSuite(&after) else { return nil }
            let keys = knownKeys()
            var changed = false
            for key in keys {
                let slot = slotLocked(for: key)
                guard let old = loadedObject(slot, &after) else { continue }
                backend.writeThrough(key: key, object: nil)
                let remaining = backend.object(forKey: key)
                if PropertyList.same(Optional(old), remaining) { continue }
                change(slot, to: remaining, origin: .thisProcess, &after)
                markWritten(slot)
                changed = true
            }
            guard changed, backend.commitsOnSchedule else { return nil }
            return scheduleFlush(durability)
        }
        flush(when: window)
    }

    /// Flushes as ``scheduleFlush(_:)`` decided: `nil`, nothing (a flush is already due, or
    /// the backend commits otherwise); `.some(nil)`, now; `.some(delay)`, after `delay`.
    private func flush(when window: TimeInterval??) {
        switch window {
        case nil:
            break
        case .some(nil):
            flushReporting()
        case .some(let delay?):
            DispatchQueue.global().asyncAfter(deadline: .now() + delay) { self.flushReporting() }
        }
    }

    /// Replaces the slot's object with what `transform` returns for the freshest stored object,
    /// atomically: under the backend's cross-process lock for a plist file. Called from inside
    /// another update's `transform` on the same thread, it joins that update's commit.
    func update(_ slot: KeySlot, _ transform: @escaping (PropertyList?) -> PropertyList?) {
        var after = AfterUnlock()
        defer { after.run() }
        if let transaction = joinableTransaction() {
            transaction.take(takePending())
            let updated = transform(transaction.edit[slot.key])
            transaction.join([slot.key: updated])
            lock.withLock { change(slot, to: updated, origin: .thisProcess, &after) }
            return
        }
        let limit = PlistFile.Wait.lock
        ensureLoaded()
        do {
            try commits.lock(waitingAtMost: limit)
        } catch {
            after.report(Self.updateFailure(error, key: slot.key.name))
            return
        }
        defer { commits.unlock() }
        let changes = takePending()
        var updated: PropertyList?
        var transaction: Transaction?
        do {
            let contents = try backend.commit(changes, waitingAtMost: limit, repairing: true) { edit in
                let running = Transaction(edit: edit, retrying: transaction, changes: changes)
                transaction = running
                self.lock.withLock { self.transaction = running }
                defer { self.lock.withLock { self.transaction = nil } }
                updated = transform(edit[slot.key])
                edit[slot.key] = updated
            }
            lock.withLock {
                // This process's update first, so taking in the file does not mistake it for
                // another process's change.
                change(slot, to: updated, origin: .thisProcess, &after)
                refresh(from: contents, &after)
                forgetBases(of: transaction?.changes ?? changes)
            }
        } catch {
            // Whatever nested updates and flushes joined stays pending too.
            restore(transaction?.changes ?? changes)
            after.report(Self.updateFailure(error, key: slot.key.name))
        }
    }

    /// What an update that could not commit reports: that the update was not stored, where a
    /// write failure would say the changes are kept.
    private static func updateFailure(_ error: DefaultsError, key: String) -> DefaultsError {
        switch error {
        case .writeFailed(let path, let underlying), .readFailed(let path, let underlying):
            .updateFailed(key: key, path: path, underlying: underlying)
        default:
            error
        }
    }

    /// Runs `body` on the freshest contents of the suite and commits what it changed, with every
    /// pending change, under the backend's cross-process lock, in one replacement of the file.
    /// When `body` throws, nothing is written and pending changes stay pending. Observers hear
    /// of each key `body` changed. Updates and flushes that `body` makes on this suite join the
    /// commit; a commit of several keys asked for from inside an update's body throws rather
    /// than wait for the lock its own thread holds. With `committingPending` false (a dry run),
    /// pending changes are left pending and out of `body`'s view. With `repairing` false, a
    /// suite whose file does not parse is left as it is and the commit throws.
    func commitEdit(
        committingPending: Bool = true, repairing: Bool = true, _ body: @escaping SuiteEdit.Body
    ) throws(DefaultsError) {
        guard joinableTransaction() == nil else {
            throw .writeFailed(path: location, underlying: NestedCommit())
        }
        var after = AfterUnlock()
        defer { after.run() }
        let limit = PlistFile.Wait.lock
        try commits.lock(waitingAtMost: limit)
        defer { commits.unlock() }
        let changes = committingPending ? takePending() : [:]
        var edited: [DefaultsStoredKey: PropertyList?] = [:]
        var transaction: Transaction?
        do {
            let contents = try backend.commit(changes, waitingAtMost: limit, repairing: repairing) {
                edit throws(DefaultsError) in
                let running = Transaction(edit: edit, retrying: transaction, changes: changes)
                transaction = running
                self.lock.withLock { self.transaction = running }
                defer { self.lock.withLock { self.transaction = nil } }
                try body(edit)
                edited = edit.changes
            }
            lock.withLock {
                // This process's edit first, so taking in the file does not mistake it for
                // another process's change. Keys a nested update changed are current already.
                for (key, object) in edited {
                    let slot = slotLocked(for: key)
                    if !(slot.isLoaded && PropertyList.same(slot.object, object)) {
                        change(slot, to: object, origin: .thisProcess, &after)
                    }
                }
                stored?.apply(edited)
                refresh(from: contents, &after)
                forgetBases(of: transaction?.changes ?? changes)
            }
        } catch {
            // Whatever nested updates and flushes joined stays pending too.
            restore(transaction?.changes ?? changes)
            throw error
        }
    }

    /// Commits every pending change to the backend, waiting at most `limit` seconds for other
    /// writers. Called from inside an update's `transform`, the changes join that update's
    /// commit and are written with it.
    func flush(waitingAtMost limit: TimeInterval = PlistFile.Wait.lock, atExit: Bool = false) throws(DefaultsError) {
        if let transaction = joinableTransaction() {
            transaction.take(takePending())
            return
        }
        var after = AfterUnlock()
        defer { after.run() }
        if atExit {
            // A flush already committing is waited for only where commits end within the
            // engine's bounds (a file); a program's backend keeps the exit's own bound.
            try commits.lockBeforeExit(waitingAtMost: limit, forUnderwayFlush: backend.loadsCheaply)
        } else {
            // Once the process is ending, only the flush at exit commits.
            if SuiteRegistry.isExiting { return }
            try commits.lock(waitingAtMost: limit)
            // The exit may have begun while this waited for the lock, and its flush may be
            // waiting for this one: it commits these changes, within its own bound.
            if SuiteRegistry.isExiting {
                commits.unlock()
                return
            }
        }
        defer { commits.unlock() }
        let changes = takePending()
        guard !changes.isEmpty else { return }
        do {
            let contents = try commits.flushing { () throws(DefaultsError) in
                try backend.commit(changes, waitingAtMost: limit, repairing: true, edit: nil)
            }
            lock.withLock {
                refresh(from: contents, &after)
                forgetBases(of: changes)
            }
        } catch {
            restore(changes)
            throw error
        }
    }

    /// The flush at exit or on a termination signal: waits less, and from inside an update's
    /// body (`exit()` called there) writes what that update's commit holds so far.
    func flushBeforeExit() {
        if let transaction = joinableTransaction() {
            transaction.take(takePending())
            do {
                try transaction.edit.writeNow()
            } catch {
                DefaultsError.report(error)
            }
            return
        }
        flushReporting(waitingAtMost: PlistFile.Wait.lockAtExit, retrying: false, atExit: true)
    }

    /// The update this thread is running on this suite, if any.
    private func joinableTransaction() -> Transaction? {
        lock.withLock { transactionOnThisThread }
    }

    /// Registers `deliver` for changes of `keys` (`nil`: every key). With `initial`, each key's
    /// current object is delivered first (for `nil`, each key that holds one), in order with
    /// the changes that follow.
    func addObserver(
        keys: Set<DefaultsStoredKey>?, initial: Bool = false, deliver: @escaping @Sendable (SlotChange) -> Void
    ) -> DefaultsObservation {
        ensureLoaded()
        var after = AfterUnlock()
        defer { after.run() }
        return lock.withLock {
            // Loaded now, so the first change can name the old value (for an observer of every
            // key, so that another process's change of any key is told from what it was).
            for key in keys ?? [] { _ = loadedObject(slotLocked(for: key), &after) }
            if keys == nil { _ = loadSuite(&after) }
            let entry = observers.add(keys: keys, deliver: deliver)
            if initial {
                let initialKeys: [DefaultsStoredKey]
                if let keys {
                    initialKeys = keys.sorted()
                } else if loadSuite(&after) {
                    initialKeys = knownKeys().sorted()
                } else {
                    initialKeys = []
                }
                for key in initialKeys {
                    let current = loadedObject(slotLocked(for: key), &after)
                    if keys == nil, current == nil { continue }
                    observers.enqueue(
                        SlotChange(key: key, oldObject: current, newObject: current, origin: .thisProcess), to: entry)
                }
            }
            return DefaultsObservation(observers: observers, entry: entry)
        }
    }

    /// Reads the suite again from its backend; keys that differ take the new objects and their
    /// observers are told. With `onlyIfChanged` (the file watcher), a file this process wrote
    /// last is not read again, and keys written here since are kept. Without it (an explicit
    /// ``DefaultsStore/refresh()``), a key the backend changed since this process last saw it
    /// replaces a write of the same key not yet flushed: the backend's is the later write.
    /// Returns whether the backend held anything else than what this process knew.
    @discardableResult
    func reload(onlyIfChanged: Bool = false) -> Bool {
        var after = AfterUnlock()
        defer { after.run() }
        // A suite not loaded yet has nothing to refresh; its first read will see the file as it
        // is then (a watcher catching a file halfway written must not stand in for that read).
        if onlyIfChanged, !lock.withLock({ hasLoaded }) { return false }
        // Inside an update's body the commit in progress already holds the freshest contents.
        if joinableTransaction() != nil { return false }
        // Serialized with commits, so an old read can never undo a newer commit.
        do {
            try commits.lock(waitingAtMost: PlistFile.Wait.lock)
        } catch {
            guard onlyIfChanged else {
                after.report(error)
                return false
            }
            // Told of a change while a commit of this process waits out a stuck lock or an
            // unreachable server: nothing was written, so no write failed; look again later.
            DispatchQueue.global().asyncAfter(deadline: .now() + 0.5) { self.reload(onlyIfChanged: true) }
            return false
        }
        defer { commits.unlock() }
        let contents = backend.reload(onlyIfChanged: onlyIfChanged)
        return lock.withLock {
            var changed = false
            switch contents {
            case .whole(let values):
                changed = !Self.same(stored, values)
                if !onlyIfChanged {
                    for slot in pendingSlots where slot.isPending {
                        guard case .some(let base) = slot.pendingBase, !PropertyList.same(base, values[slot.key])
                        else { continue }
                        slot.isPending = false
                        slot.pendingBase = nil
                    }
                }
                takeIn(values, origin: .otherProcess, &after)
            case .perKey:
                for (key, slot) in slots where slot.isLoaded {
                    // Written through as it was made: a different object was written after it.
                    if slot.isPending, onlyIfChanged { continue }
                    let current = backend.object(forKey: key)
                    if !PropertyList.same(slot.object, current) {
                        slot.isPending = false
                        change(slot, to: current, origin: .otherProcess, &after)
                        changed = true
                    }
                }
            case .unchanged:
                break
            }
            return changed
        }
    }

    /// Whether two suites' contents hold the same keys and values.
    private static func same(_ first: [DefaultsStoredKey: PropertyList]?, _ second: [DefaultsStoredKey: PropertyList])
        -> Bool
    {
        guard let first, first.count == second.count else { return false }
        return first.allSatisfy { key, object in PropertyList.same(Optional(object), second[key]) }
    }

    /// ``flush(waitingAtMost:)`` for callers with no one to throw to: errors go to the handler.
    func flushReporting(
        waitingAtMost limit: TimeInterval = PlistFile.Wait.lock, retrying: Bool = true, atExit: Bool = false
    ) {
        do {
            try flush(waitingAtMost: limit, atExit: atExit)
            lock.withLock {
                failureReported = false
                retryDelay = Self.firstRetryDelay
            }
        } catch {
            // A failed commit keeps its changes pending and is retried, with a growing wait,
            // until one succeeds: a backend or disk that comes back gets them in order. Reported
            // once per run of failures.
            let (report, retryAfter) = lock.withLock { () -> (Bool, TimeInterval?) in
                let report = !failureReported
                failureReported = true
                guard retrying, !retryScheduled, pendingSlots.contains(where: { $0.isPending }) else {
                    return (report, nil)
                }
                retryScheduled = true
                let delay = retryDelay
                retryDelay = min(retryDelay * 2, Self.lastRetryDelay)
                return (report, delay)
            }
            if report { DefaultsError.report(error) }
            if let retryAfter {
                DispatchQueue.global().asyncAfter(deadline: .now() + retryAfter) {
                    self.lock.withLock { self.retryScheduled = false }
                    self.flushReporting()
                }
            }
        }
    }

    // MARK: Under `lock`

    /// Records a write of this process to `slot`: pending until committed, and, for a backend
    /// committed on a schedule, what the backend held before it, so an explicit refresh can tell
    /// a later outside write.
    private func markWritten(_ slot: KeySlot) {
        markPending(slot)
        if backend.commitsOnSchedule, slot.pendingBase == nil, let stored {
            slot.pendingBase = .some(stored[slot.key])
        }
    }

    /// ``joinableTransaction()``, for callers that hold `lock`.
    private var transactionOnThisThread: Transaction? {
        guard let transaction, pthread_equal(transaction.thread, pthread_self()) != 0 else { return nil }
        return transaction
    }

    private func markPending(_ slot: KeySlot) {
        slot.isPending = true
        guard !slot.isListedPending else { return }
        slot.isListedPending = true
        pendingSlots.append(slot)
    }

    private func slotLocked(for key: DefaultsStoredKey) -> KeySlot {
        if let slot = slots[key] { return slot }
        let slot = KeySlot(key: key)
        slots[key] = slot
        return slot
    }

    /// The slot's object, fetched from the backend on first use. When the backend cannot be
    /// read, `nil`, with the slot left unloaded so that the next use tries again.
    private func loadedObject(_ slot: KeySlot, _ after: inout AfterUnlock) -> PropertyList? {
        if !slot.isLoaded {
            guard loadSuite(&after) else { return nil }
            slot.object = stored.map { $0[slot.key] } ?? backend.object(forKey: slot.key)
            slot.isLoaded = true
        }
        return slot.object
    }

    /// Every key the suite holds or this process has used: the loaded contents' (or, for a
    /// backend that reads key by key, its own list), and every slot's.
    private func knownKeys() -> Set<DefaultsStoredKey> {
        Set(slots.keys).union(stored.map { Array($0.keys) } ?? backend.storedKeys())
    }

    /// Whether the suite is loaded, for callers that hold `lock`: it never calls the backend,
    /// which ``ensureLoaded()`` does without the lock. Inside a commit on this thread (a read or
    /// write in an update's body) the contents the commit read are the freshest, and stand in.
    private func loadSuite(_ after: inout AfterUnlock) -> Bool {
        if hasLoaded { return true }
        if let whole = transactionOnThisThread?.edit.wholeBase {
            stored = whole
            hasLoaded = true
            return true
        }
        return false
    }

    /// Loads the suite from its backend on first use, without holding `lock`: a load may take
    /// seconds (a file lock, a database that does not answer) and may call back into this
    /// store, and cached reads on other threads must not wait for it. When it cannot be read,
    /// that is reported once, reads give defaults, and a later use tries again (a program's
    /// backend after a growing pause). Not from inside the engine's own load of the suite: a
    /// backend's `load()` reading its own store gets defaults.
    func ensureLoaded() {
        if BackendCall.loading == location { return }
        let due = lock.withLock { () -> Bool in
            if hasLoaded || transactionOnThisThread?.edit.wholeBase != nil { return false }
            if let nextLoad, Date() < nextLoad { return false }
            return true
        }
        guard due else { return }
        var after = AfterUnlock()
        defer { after.run() }
        let contents = BackendCall.$loading.withValue(location) { backend.load() }
        lock.withLock {
            // Loaded meanwhile by another thread, or taken in from a commit: that is fresher.
            guard !hasLoaded else { return }
            if contents.isUnreadable {
                if !loadFailed { after.report(contents.problem) }
                loadFailed = true
                if !backend.loadsCheaply {
                    nextLoad = Date().addingTimeInterval(loadDelay)
                    loadDelay = min(loadDelay * 2, Self.lastLoadDelay)
                }
                return
            }
            loadFailed = false
            nextLoad = nil
            loadDelay = Self.firstLoadDelay
            stored = contents.values
            after.report(contents.problem)
            hasLoaded = true
        }
    }

    /// The one place a slot's object changes; observers of the key hear of it, in order, and its
    /// `didSet` callbacks run once the lock is released.
    private func change(
        _ slot: KeySlot, to object: PropertyList?, origin: DefaultsChangeOrigin, _ after: inout AfterUnlock
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
        slot.object = object
        slot.isLoaded = true
        slot.generation &+= 1
        slot.initialValueNotStored = false
        slot.clearCache()
        guard isHeard else { return }
        let change = SlotChange(key: slot.key, oldObject: old, newObject: object, origin: origin)
        if hasObservers { observers.enqueue(change) }
        after.call(callbacks, with: change)
    }

    /// Whether and when to flush after a write: `nil` when a flush is already due, `.some(nil)`
    /// for now, `.some(delay)` for later.
    private func scheduleFlush(_ durability: Durability) -> TimeInterval?? {
        switch durability.window {
        case nil:
            return .some(nil)
        case let window? where !flushScheduled:
            flushScheduled = true
            return .some(window)
        default:
            return nil
        }
    }

    /// Takes every pending change for a commit.
    private func takePending() -> [DefaultsStoredKey: PropertyList?] {
        lock.withLock {
            var changes: [DefaultsStoredKey: PropertyList?] = [:]
            for slot in pendingSlots {
                slot.isListedPending = false
                if slot.isPending {
                    changes[slot.key] = .some(slot.object)
                    slot.isPending = false
                }
            }
            pendingSlots.removeAll(keepingCapacity: pendingSlots.count <= 64)
            flushScheduled = false
            return changes
        }
    }

    /// Forgets what the backend held under keys now committed, unless written again since.
    private func forgetBases(of changes: [DefaultsStoredKey: PropertyList?]) {
        for key in changes.keys {
            if let slot = slots[key], !slot.isPending { slot.pendingBase = nil }
        }
    }

    /// Puts back changes whose commit failed, unless the key was written again since. Called
    /// by the commit that took them, still holding `commits`: each slot still holds its change
    /// (see `pendingSlots`).
    private func restore(_ changes: [DefaultsStoredKey: PropertyList?]) {
        lock.withLock {
            for key in changes.keys {
                if let slot = slots[key], !slot.isPending { markPending(slot) }
            }
        }
    }

    /// Takes in the contents a commit found and wrote: keys changed by another process since
    /// this one loaded them, and not written here since, get the new object.
    private func refresh(from committed: SuiteContents, _ after: inout AfterUnlock) {
        after.report(committed.problem)
        if let contents = committed.values { takeIn(contents, origin: .otherProcess, &after) }
    }

    /// Makes `contents` the suite's known contents: loaded keys that differ, and were not
    /// written here since, change to them.
    private func takeIn(
        _ contents: [DefaultsStoredKey: PropertyList], origin: DefaultsChangeOrigin, _ after: inout AfterUnlock
    ) {
        let previous = stored
        stored = contents
        hasLoaded = true
        for (key, slot) in slots where slot.isLoaded && !slot.isPending {
            let current = contents[key]
            if !PropertyList.same(slot.object, current) { change(slot, to: current, origin: origin, &after) }
        }
        // Keys no handle here has used: observers hear of them too (a key another program
        // added or removed), compared with the contents known before.
        guard !observers.isEmpty, let previous else { return }
        for key in Set(previous.keys).union(contents.keys) where slots[key]?.isLoaded != true {
            let (old, current) = (previous[key], contents[key])
            if PropertyList.same(old, current) { continue }
            let slot = slotLocked(for: key)
            slot.object = old
            slot.isLoaded = true
            change(slot, to: current, origin: origin, &after)
        }
    }
}

/// An update's commit in progress: the thread running it, the suite's contents as it edits
/// them, and every change it took in, to keep pending should it fail.
///
/// A backend may run a commit's edit more than once (PostgreSQL retries a commit whose
/// connection was lost): each run gets a new transaction. It takes over the pending changes the
/// run before took in, which exist nowhere else now, but not what nested updates changed: the
/// body runs them again, on the freshest values.
private final class Transaction {
    let thread = pthread_self()
    let edit: SuiteEdit
    private(set) var changes: [DefaultsStoredKey: PropertyList?]
    /// The pending changes taken in, from the start and by nested updates and flushes.
    private var taken: [DefaultsStoredKey: PropertyList?]

    init(edit: SuiteEdit, retrying previous: Transaction?, changes: [DefaultsStoredKey: PropertyList?]) {
        self.edit = edit
        self.changes = changes
        taken = changes
        if let previous { take(previous.taken) }
    }

    /// Takes pending changes into the commit.
    func take(_ changes: [DefaultsStoredKey: PropertyList?]) {
        join(changes)
        taken.merge(changes) { $1 }
    }

    /// Takes a nested update's change into the commit.
    func join(_ changes: [DefaultsStoredKey: PropertyList?]) {
        edit.apply(changes)
        self.changes.merge(changes) { $1 }
    }
}

/// A commit of several keys asked for from inside an update's body, which holds the suite's
/// commit lock on the same thread.
struct NestedCommit: Error, CustomStringConvertible {
    var description: String {
        "a migration or edit of several keys cannot run inside an update of the same suite"
    }
}
