import Foundation

extension DefaultsStore {
    /// A store whose suite lives in `backend`: a database, a service, a format of your own.
    ///
    /// ```swift
    /// let limits = DefaultsStore(backend: MyDatabaseBackend(suite: "fleet.limits"), durability: .immediate)
    /// limits[.maxConnections] = 200
    /// ```
    ///
    /// Stores made with backends of one ``DefaultsBackend/location`` share one state, and so see
    /// each other's writes at once, as stores of one suite name do; the first backend given for
    /// a location is the one used. A store's own ``backend`` given here uses that store's state.
    ///
    /// - Parameters:
    ///   - backend: where the suite's values live; for a ``DefaultsBackend/location`` already in
    ///     use, the backend given first is used.
    ///   - durability: when writes are committed to the backend; `.coalesced` (within 100 ms) unless given.
    public init(backend: some DefaultsBackend, durability: Durability = .coalesced) {
        if let own = backend as? StateBackend {
            self.init(state: own.state, durability: durability)
            return
        }
        let state = SuiteRegistry.state(for: .backend(backend.location)) {
            let state = SuiteState(backend: ExternalBackend(backend: backend), label: backend.location)
            let announcements = ChangeAnnouncements(state: state)
            backend.observeChanges { announcements.announce() }
            return state
        }
        self.init(state: state, durability: durability)
    }

    /// The store's suite as a ``DefaultsBackend``: the backend it was made with, or, for a plist
    /// file, a `UserDefaults` object or memory, the engine's own, through this store's state
    /// (so its commits are seen by every handle on the suite at once).
    ///
    /// ```swift
    /// let failures = DefaultsBackendConformance.check { DefaultsStore.inMemory().backend }
    /// ```
    public var backend: any DefaultsBackend {
        if let external = state.backend as? ExternalBackend { return external.backend }
        return StateBackend(state: state)
    }
}

/// One of the engine's own backends, seen through the suite's state as a ``DefaultsBackend``.
struct StateBackend: DefaultsBackend {
    let state: SuiteState
    /// Observations made by ``observeChanges(_:)``, kept as long as the state.
    private let observations = Locked<[DefaultsObservation]>([])

    init(state: SuiteState) {
        self.state = state
    }

    var location: String { state.location }

    func load() throws(DefaultsError) -> [DefaultsStoredKey: DefaultsStoredValue] {
        try DefaultsStoredValue.values(of: state.storedContents())
    }

    /// Waits for other writers as the engine does, at most 5 seconds, whatever `deadline` says.
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

    func observeChanges(_ changed: @escaping @Sendable () -> Void) {
        let observation = state.addObserver(keys: nil) { change in
            if change.origin == .otherProcess { changed() }
        }
        observations.withLock { $0.append(observation) }
    }
}
