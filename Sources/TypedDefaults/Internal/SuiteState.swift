import Foundation

/// The one state a process keeps for a suite, shared by every handle on it.
///
/// It holds a slot per key (the stored object and its last decode), the changes not yet made
/// durable, and the backend that makes them so. A write through any handle updates the slot
/// under the lock, so the very next read of any handle, on any thread, sees it.
// @unchecked Sendable is sound: `slots`, `stored`, `pending` and `flushScheduled`, and every
// slot's fields, are only touched while holding `lock`; `flushLock` serializes commits; the
// backend is Sendable.
@usableFromInline final class SuiteState: @unchecked Sendable {
    let backend: any StoreBackend
    @usableFromInline let lock = NSLock()
    private let flushLock = NSLock()
    private var slots: [String: KeySlot] = [:]
    /// The backend's contents as last loaded or committed, for backends that load whole.
    private var stored: [String: PropertyList]?
    private var hasLoaded = false
    /// Problems met under a lock, reported by the entry point once it holds none.
    private var unreported: [DefaultsError] = []
    /// Changes not yet committed: `nil` removes the key.
    private var pending: [String: PropertyList?] = [:]
    private var flushScheduled = false

    init(backend: any StoreBackend) {
        self.backend = backend
    }

    /// The slot for `key`, created on first use and shared from then on.
    func slot(for key: String) -> KeySlot {
        lock.withLock {
            if let slot = slots[key] { return slot }
            let slot = KeySlot(key: key)
            slots[key] = slot
            return slot
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

    /// The value cached for `slot` as `Value`, when it was decoded (or written) since the
    /// slot last changed. Inlined into the caller, where `Value` is concrete: unspecialized, the
    /// cast and the result's type cost a runtime metadata lookup each, ten times the rest.
    @inlinable
    func cachedValue<Value>(_ slot: KeySlot, as type: Value.Type) -> Value? {
        lock.lock()
        defer { lock.unlock() }
        guard let cached = slot.decoded as? DecodedValue<Value>, case .success(let value) = cached.result else {
            return nil
        }
        return value
    }

    /// Reads `slot` as `Value`: from the cache when nothing changed since the last decode.
    func read<Value: DefaultsValueConvertible>(_ slot: KeySlot, as type: Value.Type) -> Read<Value> {
        defer { reportUnreported() }
        lock.lock()
        if let cached = slot.decoded as? DecodedValue<Value> {
            lock.unlock()
            return .cached(cached.result)
        }
        let object = loadedObject(slot)
        let generation = slot.generation
        lock.unlock()

        guard let object else { return .missing }
        let result = Conversion.decode(object, as: Value.self, key: slot.key)
        lock.withLock {
            if slot.generation == generation { slot.decoded = DecodedValue(result) }
        }
        return .decoded(result)
    }

    /// Whether anything is stored under the slot's key.
    func hasObject(_ slot: KeySlot) -> Bool {
        defer { reportUnreported() }
        return lock.withLock { loadedObject(slot) != nil }
    }

    /// Stores `object` (`nil` removes the key), caching `value` as its decode, and arranges for
    /// the change to become durable as `durability` says.
    func write<Value>(_ object: PropertyList?, decoded value: Value, to slot: KeySlot, durability: Durability) {
        defer { reportUnreported() }
        lock.lock()
        change(slot, to: object)
        if object != nil { slot.decoded = DecodedValue<Value>(.success(value)) }
        pending[slot.key] = .some(object)
        backend.writeThrough(key: slot.key, object: object)
        let window = scheduleFlush(durability)
        lock.unlock()

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
    /// atomically: under the backend's cross-process lock for a plist file.
    func update(_ slot: KeySlot, _ transform: @escaping (PropertyList?) -> PropertyList?) {
        defer { reportUnreported() }
        flushLock.lock()
        defer { flushLock.unlock() }
        let changes = takePending()
        var updated: PropertyList?
        let update = KeyUpdate(key: slot.key) { current in
            updated = transform(current)
            return updated
        }
        do {
            let contents = try backend.commit(changes, update: update)
            lock.withLock {
                refresh(from: contents)
                if contents.values == nil { change(slot, to: updated) }
            }
        } catch {
            restore(changes)
            lock.withLock { unreported.append(error) }
        }
    }

    /// Commits every pending change to the backend.
    func flush() throws(DefaultsError) {
        defer { reportUnreported() }
        flushLock.lock()
        defer { flushLock.unlock() }
        let changes = takePending()
        guard !changes.isEmpty else { return }
        do {
            let contents = try backend.commit(changes, update: nil)
            lock.withLock { refresh(from: contents) }
        } catch {
            restore(changes)
            throw error
        }
    }

    /// ``flush()`` for callers with no one to throw to: errors go to the handler.
    func flushReporting() {
        do {
            try flush()
        } catch {
            DefaultsError.report(error)
        }
    }

    /// Hands the problems met under a lock to the error handler. Call holding no lock.
    private func reportUnreported() {
        let problems = lock.withLock {
            defer { unreported.removeAll() }
            return unreported
        }
        problems.forEach(DefaultsError.report)
    }

    // MARK: Under `lock`

    /// The slot's object, fetched from the backend on first use.
    private func loadedObject(_ slot: KeySlot) -> PropertyList? {
        if !slot.isLoaded {
            if !hasLoaded {
                let contents = backend.load()
                stored = contents.values
                unreported += contents.problem.map { [$0] } ?? []
                hasLoaded = true
            }
            slot.object = stored.map { $0[slot.key] } ?? backend.object(forKey: slot.key)
            slot.isLoaded = true
        }
        return slot.object
    }

    private func change(_ slot: KeySlot, to object: PropertyList?) {
        slot.object = object
        slot.isLoaded = true
        slot.generation &+= 1
        slot.decoded = nil
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
    private func takePending() -> [String: PropertyList?] {
        lock.withLock {
            defer {
                pending.removeAll()
                flushScheduled = false
            }
            return pending
        }
    }

    /// Puts back changes whose commit failed, unless the key was written again since.
    private func restore(_ changes: [String: PropertyList?]) {
        lock.withLock {
            for (key, object) in changes where pending[key] == nil {
                pending[key] = .some(object)
            }
        }
    }

    /// Takes in the contents a commit found and wrote: keys changed by another process since
    /// this one loaded them, and not written here since, get the new object.
    private func refresh(from committed: SuiteContents) {
        unreported += committed.problem.map { [$0] } ?? []
        guard let contents = committed.values else { return }
        stored = contents
        hasLoaded = true
        for (key, slot) in slots where slot.isLoaded && pending[key] == nil {
            let current = contents[key]
            let unchanged =
                switch (slot.object, current) {
                case (nil, nil): true
                case (let mine?, let theirs?): PropertyList.same(mine.object, theirs.object)
                default: false
                }
            if !unchanged { change(slot, to: current) }
        }
    }
}
