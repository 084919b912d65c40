extension AsyncStream where Element: Sendable {
    /// What `observe` delivers, as an asynchronous sequence: the observation it starts lasts
    /// until the iterating task is cancelled or the sequence is dropped. Every stream of the
    /// library's observations is made here.
    static func observing(
        _ observe: (_ deliver: @escaping @Sendable (Element) -> Void) -> DefaultsObservation
    ) -> AsyncStream<Element> {
        AsyncStream { continuation in
            let observation = observe { continuation.yield($0) }
            continuation.onTermination = { _ in observation.cancel() }
        }
    }
}
