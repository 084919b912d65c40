/// Keeps values in memory only: for tests and previews.
struct MemoryBackend: StoreBackend {
    private let contents = Locked<[String: PropertyList]>([:])

    func reload(onlyIfChanged: Bool) -> Reloaded {
        .whole(contents.withLock { $0 })
    }

    func load() -> SuiteContents {
        SuiteContents(values: contents.withLock { $0 }, problem: nil)
    }

    /// Returns no values: the suite's slots already hold everything, so there is nothing to refresh.
    func commit(_ changes: [String: PropertyList?], update: KeyUpdate?) -> SuiteContents {
        contents.withLock { $0.apply(changes, update) }
        return .unknown
    }
}
