/// Keeps values in memory only: for tests and previews.
struct MemoryBackend: StoreBackend {
    private let contents = Locked<[String: PropertyList]>([:])

    func load() -> [String: PropertyList]? {
        contents.withLock { $0 }
    }

    /// Returns `nil`: the suite's slots already hold everything, so there is nothing to refresh.
    func commit(_ changes: [String: PropertyList?], update: KeyUpdate?) -> [String: PropertyList]? {
        contents.withLock { $0.apply(changes, update) }
        return nil
    }
}
