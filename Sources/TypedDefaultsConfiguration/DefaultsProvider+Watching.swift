#if Configuration
    public import Configuration
    import Foundation
    import Synchronization
    import TypedDefaults

    /// What a provider keeps under its lock: its copy of the suite's values, who watches them, and
    /// which type mismatches it reported.
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    struct ProviderState: Sendable {
        var values: [DefaultsStoredKey: DefaultsStoredValue]
        var valueWatchers: [UUID: ValueWatcher] = [:]
        var snapshotWatchers: [UUID: AsyncStream<any ConfigSnapshot>.Continuation] = [:]
        /// How many changes of the copy have been counted: each change the store told of, and each
        /// key a fetch changed.
        var changeCount: UInt64 = 0
        /// The count at each key's last change, for telling a fetch's values from newer ones.
        var lastChange: [DefaultsStoredKey: UInt64] = [:]
        /// The stored value each reported mismatch was reported for.
        var reportedMismatches: [MismatchID: DefaultsStoredValue?] = [:]

        /// A key read as a type it does not hold.
        struct MismatchID: Hashable, Sendable {
            let key: DefaultsStoredKey
            let type: String
        }

        /// One `watchValue`: its key and type, where its updates go, and what it was told last (so
        /// that a change of another part of a dictionary it reads tells it nothing).
        struct ValueWatcher: Sendable {
            let key: AbsoluteConfigKey
            let type: ConfigType
            let continuation: AsyncStream<Result<LookupResult, any Error>>.Continuation
            var last: String?
        }

        /// Updates to send once the lock is released: continuations may resume a task at once.
        struct Deliveries {
            var values: [(AsyncStream<Result<LookupResult, any Error>>.Continuation, Result<LookupResult, any Error>)] =
                []
            var snapshots: [AsyncStream<any ConfigSnapshot>.Continuation] = []
            var snapshot: (any ConfigSnapshot)?
            /// The type mismatches among `values`, to report, and the values they were found in.
            var mismatches: [(DefaultsProviderTypeMismatch, AbsoluteConfigKey)] = []
            var from: [DefaultsStoredKey: DefaultsStoredValue] = [:]

            func deliver() {
                for (continuation, result) in values { continuation.yield(result) }
                if let snapshot { for continuation in snapshots { continuation.yield(snapshot) } }
            }
        }

        /// Makes `fetched`, read from the store after the count was `since`, the copy's values, but
        /// for keys changed since then (their values are newer than the fetch's); counts each key
        /// it changes. Returns the copy, and the updates due to the watchers of the changed keys.
        mutating func takeIn(
            _ fetched: [DefaultsStoredKey: DefaultsStoredValue], since: UInt64, provider: DefaultsProvider
        ) -> ([DefaultsStoredKey: DefaultsStoredValue], Deliveries) {
            var changed: [String] = []
            for key in Set(values.keys).union(fetched.keys) {
                if let last = lastChange[key], last > since { continue }
                let value = fetched[key]
                guard values[key] != value else { continue }
                values[key] = value
                changeCount += 1
                lastChange[key] = changeCount
                changed.append(key.name)
            }
            return (values, changed.isEmpty ? Deliveries() : deliveries(afterChangeOf: changed, provider: provider))
        }

        /// The updates due after the suite's keys `changedKeys` took their new values: every watcher
        /// of a key one of them answers (itself, or a member of a dictionary stored under it) whose
        /// result differs from what it was told last, and every snapshot watcher.
        mutating func deliveries(afterChangeOf changedKeys: [String], provider: DefaultsProvider) -> Deliveries {
            var deliveries = Deliveries()
            deliveries.from = values
            for (id, watcher) in valueWatchers {
                let encoded = watcher.key.components.joined(separator: ".")
                guard changedKeys.contains(where: { encoded == $0 || encoded.hasPrefix($0 + ".") }) else { continue }
                let result = Result { () throws(DefaultsProviderTypeMismatch) in
                    try provider.lookup(watcher.key, watcher.type, in: values)
                }
                let told = Self.fingerprint(result.mapError { $0 as any Error })
                guard told != watcher.last else { continue }
                valueWatchers[id]?.last = told
                deliveries.values.append((watcher.continuation, result.mapError { $0 as any Error }))
                if case .failure(let mismatch) = result { deliveries.mismatches.append((mismatch, watcher.key)) }
            }
            if !snapshotWatchers.isEmpty {
                deliveries.snapshots = Array(snapshotWatchers.values)
                deliveries.snapshot = DefaultsProviderSnapshot(provider: provider, values: values)
            }
            return deliveries
        }

        /// What tells one result from another, for not repeating one.
        static func fingerprint(_ result: Result<LookupResult, any Error>) -> String {
            switch result {
            case .success(let lookup): "value \(String(describing: lookup.value?.content))"
            case .failure(let error): "error \(error)"
            }
        }
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    extension DefaultsProvider {
        /// The value now, then each change of it, until `updatesHandler` returns; the watch then
        /// ends and its observation with it. A change of a type the key is not read as arrives as a
        /// failure (``DefaultsProviderTypeMismatch``), and the watch goes on.
        public func watchValue<Return: ~Copyable>(
            forKey key: AbsoluteConfigKey, type: ConfigType,
            updatesHandler: (_ updates: ConfigUpdatesAsyncSequence<Result<LookupResult, any Error>, Never>) async throws
                -> Return
        ) async throws -> Return {
            let (stream, continuation) = AsyncStream<Result<LookupResult, any Error>>.makeStream(
                bufferingPolicy: .bufferingNewest(1))
            let id = UUID()
            let (initial, values) = state.withLock { state in
                let result = Result { () throws(DefaultsProviderTypeMismatch) in
                    try lookup(key, type, in: state.values)
                }
                state.valueWatchers[id] = ProviderState.ValueWatcher(
                    key: key, type: type, continuation: continuation,
                    last: ProviderState.fingerprint(result.mapError { $0 as any Error }))
                return (result, state.values)
            }
            continuation.yield(initial.mapError { $0 as any Error })
            if case .failure(let mismatch) = initial { reportMismatch(mismatch, key, in: values) }
            defer {
                _ = state.withLock { $0.valueWatchers.removeValue(forKey: id) }
                continuation.finish()
            }
            return try await updatesHandler(ConfigUpdatesAsyncSequence(stream))
        }

        /// The suite's values now, then after each change, until `updatesHandler` returns.
        public func watchSnapshot<Return: ~Copyable>(
            updatesHandler: (_ updates: ConfigUpdatesAsyncSequence<any ConfigSnapshot, Never>) async throws -> Return
        ) async throws -> Return {
            let (stream, continuation) = AsyncStream<any ConfigSnapshot>.makeStream(
                bufferingPolicy: .bufferingNewest(1))
            let id = UUID()
            let initial = state.withLock { state in
                state.snapshotWatchers[id] = continuation
                return DefaultsProviderSnapshot(provider: self, values: state.values)
            }
            continuation.yield(initial)
            defer {
                _ = state.withLock { $0.snapshotWatchers.removeValue(forKey: id) }
                continuation.finish()
            }
            return try await updatesHandler(ConfigUpdatesAsyncSequence(stream))
        }

        /// The number of watches running: what the tests check a watch's end by.
        var runningWatches: Int {
            state.withLock { $0.valueWatchers.count + $0.snapshotWatchers.count }
        }
    }
#endif
