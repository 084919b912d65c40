import Foundation

/// One of the library's own backends: a plist file, a `UserDefaults` object, memory.
///
/// Each is a ``DefaultsBackend`` itself, what ``DefaultsStore/backend`` returns and what the
/// conformance kit checks. Its public requirements go through the suite's state, the one every
/// handle on the suite reads from, so a commit made through the backend is in every handle's
/// cache as it returns and its observers are told at once. A backend no store serves yet (a
/// second handle on a file, made by a test) makes a state of its own on first use.
///
/// The state and the backends handed out share everything but their ``BackendOwner``: the
/// state's own copy refers to the state without keeping it, and a copy handed out keeps it, so
/// an in-memory suite lives as long as a store or a backend of it, and no longer.
protocol BuiltInBackend: StoreBackend {
    /// The state serving the backend, once there is one.
    var owner: BackendOwner { get set }

    /// A new state for this backend, for a backend no store serves: one that hears of other
    /// processes' writes as a store's state does, where its kind of suite can.
    func makeState() -> SuiteState
}

extension BuiltInBackend {
    func served(by state: SuiteState) {
        owner.attach(state)
    }

    /// The same backend, with `owner` for its link to the state.
    func owned(by owner: BackendOwner) -> Self {
        var copy = self
        copy.owner = owner
        return copy
    }

    /// The state serving the backend, made now if no store serves it.
    var state: SuiteState {
        owner.state(orMake: { owned(by: BackendOwner()).makeState() })
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
    /// notifications on Apple platforms. Kept as long as this backend value.
    func observeChanges(_ changed: @escaping @Sendable () -> Void) {
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

/// A built-in backend's link to the state that serves it, and the observations made through it.
///
/// The copy of the backend a state holds must not keep that state: a released in-memory store
/// would never be freed. It refers to it `unowned` when the state lives as long as the process
/// (a weak reference would move the state's reference counts to a side table, slowing every
/// retain on the hot path), and `weak` otherwise. A copy handed out to a program keeps its state.
final class BackendOwner: Sendable {
    private struct Entry: Sendable {
        var served: (@Sendable () -> SuiteState?)?
        var kept: SuiteState?
        var observations: [DefaultsObservation] = []
    }
    private let entry: Locked<Entry>

    init() {
        entry = Locked(Entry())
    }

    /// An owner that keeps `state`, for a backend handed out to a program.
    init(keeping state: SuiteState) {
        entry = Locked(Entry(served: { [unowned state] in state }, kept: state))
    }

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

    /// The state, made by `make` and kept if there is none: `make` must not attach it here.
    func state(orMake make: () -> SuiteState) -> SuiteState {
        if let state = entry.withLock({ $0.served?() }) { return state }
        let made = make()
        return entry.withLock { entry in
            if let state = entry.served?() { return state }
            entry.kept = made
            entry.served = { [unowned made] in made }
            return made
        }
    }

    func keep(_ observation: DefaultsObservation) {
        entry.withLock { $0.observations.append(observation) }
    }
}
