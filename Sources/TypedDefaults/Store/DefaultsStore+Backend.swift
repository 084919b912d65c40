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
        if let suite = backend as? SuiteAsBackend {
            self.init(state: suite.state, durability: durability)
            return
        }
        let external = ExternalBackend(backend: backend)
        let state = SuiteRegistry.state(
            for: .backend(backend.location), label: backend.location, administration: .backend(external)
        ) { external }
        self.init(state: state, durability: durability)
    }

    /// Where the store's suite lives: the backend it was made with, or, for a plist file, a
    /// `UserDefaults` object or memory, the suite itself seen as a backend. That one commits
    /// through this store's suite, so what is committed through it is seen by every handle on
    /// the suite at once, and keeps the suite as long as it lives, as the store does.
    ///
    /// ```swift
    /// let failures = DefaultsBackendConformance.check { DefaultsStore.inMemory().backend }
    /// ```
    public var backend: any DefaultsBackend {
        if let external = state.backend as? ExternalBackend { return external.backend }
        return SuiteAsBackend(state: state)
    }
}
