import Foundation

/// One of the library's own backends: a plist file, a `UserDefaults` object, memory.
///
/// Each is a ``DefaultsBackend`` itself, what ``DefaultsStore/backend`` returns and what the
/// conformance kit checks. Its public requirements go through the suite's state, the one every
/// handle on the suite reads from, so a commit made through the backend is in every handle's
/// cache as it returns and its observers are told at once. A backend no store serves yet (a
/// second handle on a file, made by a test) makes a state of its own on first use.
protocol BuiltInBackend: StoreBackend {
    /// The state serving the backend, once there is one.
    var owner: BackendOwner { get }

    /// A state of the backend's own, for a backend no store serves: one that lives no longer
    /// than the backend, and hears of other processes' writes as a store's state does.
    func makeState() -> SuiteState
}

extension BuiltInBackend {
    func served(by state: SuiteState) {
        owner.attach(state)
    }

    /// The state serving the backend, made now if no store serves it.
    var state: SuiteState {
        owner.state(orMake: makeState)
    }

    /// What the suite holds, with this process's changes not yet committed flushed first.
    func load() throws(DefaultsError) -> [DefaultsStoredKey: DefaultsStoredValue] {
        try DefaultsStoredValue.values(of: state.storedContents())
    }

    /// Commits through the suite's state, serialized with the engine's own commits. Waits for
    /// other writers as the engine does, at most 5 seconds, whatever `deadline` says.
    func commit(
        _ changes: [DefaultsStoredKey: DefaultsStoredValue?], before deadline: ContinuousClock.Instant,
        edit: (inout [DefaultsStoredKey: DefaultsStoredValue]) throws(DefaultsError) -> Void
    ) throws(DefaultsError) -> [DefaultsStoredKey: DefaultsStoredValue] {
        var after: [DefaultsStoredKey: DefaultsStoredValue] = [:]
        try withoutActuallyEscaping(edit) { edit throws(DefaultsError) in
            try state.commitEdit(repairing: false) { suiteEdit throws(DefaultsError) in
                after = try suiteEdit.editValues { values throws(DefaultsError) in
                    for (key, value) in changes { values[key] = value }
                    try edit(&values)
                }
            }
        }
        return after
    }

    /// Hears what the state hears from other processes: the file watcher, or `UserDefaults`'
    /// notifications on Apple platforms. Kept as long as the state.
    func observeChanges(_ changed: @escaping @Sendable () -> Void) {
        let state = state
        let observation = state.addObserver(keys: nil) { change in
            if change.origin == .otherProcess { changed() }
        }
        owner.keep(observation)
    }

    /// Refuses what the backend's own check refuses.
    func check(_ value: DefaultsStoredValue, forKey key: DefaultsStoredKey) throws(DefaultsError) {
        guard let refusal else { return }
        let object = try Conversion.encode(value, key: key.name).get()
        if let problem = refusal(object, key) { throw problem }
    }
}

/// The state that serves a built-in backend, and observations made through the backend.
///
/// A store's state holds its backend, so the backend must not hold that state strongly: a
/// released in-memory store would never be freed. It holds it `unowned` when the state lives
/// as long as the process (a weak reference would move the state's reference counts to a side
/// table, slowing every retain on the hot path), and `weak` otherwise. Only a state the backend
/// made for itself, which nothing else holds, is held strongly.
final class BackendOwner: Sendable {
    private struct Entry: Sendable {
        var served: (@Sendable () -> SuiteState?)?
        var own: SuiteState?
        var observations: [DefaultsObservation] = []
    }
    private let entry = Locked(Entry())

    func attach(_ state: SuiteState) {
        let served: @Sendable () -> SuiteState?
        if state.isPermanent {
            served = { [unowned state] in state }
        } else {
            served = { [weak state] in state }
        }
        entry.withLock { entry in
            if entry.served?() == nil { entry.served = served }
        }
    }

    func state(orMake make: () -> SuiteState) -> SuiteState {
        if let state = entry.withLock({ $0.served?() }) { return state }
        // Made outside the lock: making the state attaches it, which takes the lock.
        let made = make()
        return entry.withLock { entry in
            if let state = entry.served?(), state !== made { return state }
            entry.own = made
            entry.served = { [unowned made] in made }
            return made
        }
    }

    /// The state serving the backend now, if any.
    var servingState: SuiteState? {
        entry.withLock { $0.served?() }
    }

    func keep(_ observation: DefaultsObservation) {
        entry.withLock { $0.observations.append(observation) }
    }
}
