import Foundation
import TypedDefaultsStorage

/// A suite the library keeps itself (a plist file, a `UserDefaults` object, memory), seen as a
/// ``DefaultsBackend``: what ``DefaultsStore/backend`` returns for it, and what the conformance
/// kit checks.
///
/// Each requirement goes through the suite's state, the one every handle on the suite reads
/// from, so a commit made here is in every handle's cache as it returns and its observers are
/// told at once. The state never calls back: it reaches storage through its `StoreBackend`
/// alone. The view keeps the state, so an in-memory suite lives as long as a store or a backend
/// of it, and no longer.
struct SuiteAsBackend: DefaultsBackend {
    let state: SuiteState
    /// The observations `observeChanges` made, kept as long as a copy of this view.
    private let observations = Locked<[DefaultsObservation]>([])

    init(state: SuiteState) {
        self.state = state
    }

    /// The file's path; for a suite with no file (memory, a `UserDefaults` object), its kind and
    /// a number no other suite of this process has, so that stores made over two such suites'
    /// backends are two suites.
    var location: String {
        state.fileURL == nil ? "\(state.location):\(state.serial)" : state.location
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

    /// Hears every change of the suite: another process's (the file watcher, or `UserDefaults`'
    /// notifications on Apple platforms), and every write of this process through any handle on
    /// the suite, which a store made over this backend (or over one that wraps it) must see.
    /// This backend's own commits are told too: a store reloads once more, and finds nothing new.
    func observeChanges(_ changed: @escaping @Sendable () -> Void) {
        let observation = state.addObserver(keys: nil) { _ in changed() }
        observations.withLock { $0.append(observation) }
    }

    /// Refuses what the suite's storage refuses.
    func check(_ value: DefaultsStoredValue, forKey key: DefaultsStoredKey) throws(DefaultsError) {
        guard let refusal = state.refusal else { return }
        let object = try Conversion.encode(value, key: key.name).get()
        if let problem = refusal(object, key) { throw problem }
    }
}
