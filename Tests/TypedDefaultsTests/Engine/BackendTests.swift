import Foundation
import Testing
import TypedDefaultsTestSupport

@testable import TypedDefaults
@testable import TypedDefaultsStorage

/// A backend of a program's own: values in memory shared by every handle on one suite, each
/// commit under a lock, every handle told of the others' commits.
final class SharedMemoryBackend: DefaultsBackend, @unchecked Sendable {  // `storage` is a Sendable class.
    /// The suites, by location, as a database would hold them.
    final class Storage: @unchecked Sendable {  // `suites` and `handlers` only under `lock`.
        let lock = NSLock()
        var suites: [String: [DefaultsStoredKey: DefaultsStoredValue]] = [:]
        var handlers: [String: [(ObjectIdentifier, @Sendable () -> Void)]] = [:]
        /// When set, every load and commit fails, as a database that cannot be reached.
        var isUnreachable = false
        /// How many loads were asked for.
        var loads = 0
        /// How many runs of an edit to throw away before one is stored, as a database backend
        /// retrying a commit whose connection was lost.
        var runsLost = 0
    }

    let location: String
    let storage: Storage

    init(location: String, storage: Storage = Storage()) {
        self.location = location
        self.storage = storage
    }

    func load() throws(DefaultsError) -> [DefaultsStoredKey: DefaultsStoredValue] {
        storage.lock.lock()
        defer { storage.lock.unlock() }
        storage.loads += 1
        guard !storage.isUnreachable else { throw Self.unreachable(location) }
        return storage.suites[location] ?? [:]
    }

    func commit(
        _ changes: [DefaultsStoredKey: DefaultsStoredValue?], before deadline: ContinuousClock.Instant,
        edit: (inout [DefaultsStoredKey: DefaultsStoredValue]) throws(DefaultsError) -> Void
    ) throws(DefaultsError) -> [DefaultsStoredKey: DefaultsStoredValue] {
        storage.lock.lock()
        guard !storage.isUnreachable else {
            storage.lock.unlock()
            throw Self.unreachable(location)
        }
        var values: [DefaultsStoredKey: DefaultsStoredValue]
        repeat {
            values = storage.suites[location] ?? [:]
            for (key, value) in changes { values[key] = value }
            do {
                try edit(&values)
            } catch {
                storage.lock.unlock()
                throw error
            }
            storage.runsLost -= 1
        } while storage.runsLost >= 0
        storage.runsLost = 0
        storage.suites[location] = values
        let me = ObjectIdentifier(self)
        let others = (storage.handlers[location] ?? []).filter { $0.0 != me }.map(\.1)
        storage.lock.unlock()
        for handler in others { handler() }
        return values
    }

    func observeChanges(_ changed: @escaping @Sendable () -> Void) {
        storage.lock.withLock { storage.handlers[location, default: []].append((ObjectIdentifier(self), changed)) }
    }

    static func unreachable(_ location: String) -> DefaultsError {
        .writeFailed(path: location, underlying: CocoaError(.fileReadUnknown))
    }
}

/// The public backend seam: stores on a program's backend, and the conformance kit, run on the
/// engine's own backends and on one that breaks its promises.
@Suite struct BackendTests {
    @Test func theEnginesOwnBackendsPassTheConformanceKit() throws {
        var suites: [String] = []
        defer { for name in suites { TestSuite.removeFiles(of: PreferencesFolder.file(forSuite: name)) } }
        func newName() -> String {
            let name = "typeddefaults-tests.backend.\(UUID().uuidString)"
            suites.append(name)
            return name
        }
        // A store's own backend: the plist file's, unless suites are kept through `UserDefaults`,
        // whose backend is checked below.
        let plistFile = DefaultsBackendConformance.check(
            makeBackend: {
                SuiteStorage.current == .plistFile
                    ? try DefaultsStore(suiteName: newName()).backend
                    : Self.fileSuite(named: newName())
            },
            reopen: { backend in
                // Another process's handle on the same file, told of changes by its own watcher.
                Self.fileSuite(named: URL(fileURLWithPath: backend.location).deletingPathExtension().lastPathComponent)
            })
        #expect(plistFile.isEmpty, "\(plistFile)")
        let memoryStores = DefaultsBackendConformance.check(makeBackend: { DefaultsStore.inMemory().backend })
        #expect(memoryStores.isEmpty, "\(memoryStores)")
        let userDefaults = DefaultsBackendConformance.check(makeBackend: {
            let backend = UserDefaultsBackend(defaults: SharedDefaults(try UserDefaults.suite(named: newName())))
            return SuiteAsBackend(state: SuiteRegistry.unlistedState(backend: backend, label: backend.location))
        })
        // On Linux corelibs keeps the suite as an XML plist, with whole seconds and no negative
        // zero (the StoresAndDurability article, "The Linux facts"), and a load gets what the
        // file holds when corelibs reads it again, as its cache's timing decides (1 run in 10
        // here). Those two are that Foundation's limits, which the engine's own typed values
        // avoid (a date is stored as seconds); anything else fails.
        func onlyXMLPlistLosses(_ failure: DefaultsBackendConformance.Failure) -> Bool {
            guard isLinux, failure.check == "every value is kept exactly",
                let differences = failure.problem.split(separator: "load() gave ", maxSplits: 1).last
            else { return false }
            return differences.components(separatedBy: "; ").allSatisfy { difference in
                difference.hasPrefix(#""date": {"$date":"2004-11-29T21:33:09Z"}"#)
                    || difference.hasPrefix(#""negativeZero": 0.0 ("#)
            }
        }
        // `UserDefaults` lists its keys as `[String: Any]`, which keeps one of two keys equal as
        // Swift strings, and crashes on a dictionary value holding both: the backend refuses it.
        func onlyFoundationKeyLosses(_ failure: DefaultsBackendConformance.Failure) -> Bool {
            failure.check == "keys that differ only in their normalization are two keys"
        }
        #expect(
            userDefaults.filter { !onlyXMLPlistLosses($0) && !onlyFoundationKeyLosses($0) }.isEmpty, "\(userDefaults)")
    }

    /// A suite kept in a plist file, on a state of its own that hears other processes' writes
    /// through its own watcher, as another process's store would.
    static func fileSuite(named name: String) -> SuiteAsBackend {
        let backend = PlistFileBackend(file: PlistFile(url: PreferencesFolder.file(forSuite: name)), suiteName: name)
        return SuiteAsBackend(
            state: SuiteRegistry.unlistedState(backend: backend, label: name, fileURL: backend.file.url))
    }

    /// A store's backend commits through the suite's state: every handle reads the commit as it
    /// returns, its observers are told, and a store made over the backend is the same suite.
    @Test func aStoresOwnBackendCommitsThroughItsSuite() throws {
        let store = DefaultsStore.inMemory()
        let backend = store.backend
        #expect((backend as? SuiteAsBackend)?.state === store.state)
        let count = DefaultsKey<Int>("count", default: 0, store: store)
        store[count] = 1
        let heard = Locked<[Int]>([])
        let observation = store.observe(count) { change in heard.withLock { $0.append(change.newValue) } }
        defer { observation.cancel() }
        let after = try backend.commit(["name": "Ada"], before: .now + .seconds(5)) { values in
            values["count"] = .integer(Int64((values["count"]?.value(as: Int.self) ?? 0) + 1))
        }
        let expected: [DefaultsStoredKey: DefaultsStoredValue] = ["count": .integer(2), "name": .string("Ada")]
        #expect(after == expected)
        #expect(store[count] == 2)
        #expect(DefaultsStore(backend: backend)[count] == 2)
        #expect(eventually { heard.withLock { $0 } == [2] }, "observers heard \(heard.withLock { $0 })")
        #expect(try backend.load() == after)
    }

    /// An in-memory suite lives as long as a store or a backend of it, and no longer: the
    /// backend keeps what the store wrote, and once both are released, so is the suite.
    @Test func anInMemorySuiteLivesAsLongAsAStoreOrBackendOfIt() throws {
        weak var suite: SuiteState?
        var backend: (any DefaultsBackend)?
        do {
            let store = DefaultsStore.inMemory()
            suite = store.state
            UserDefault(wrappedValue: 0, "count", store: store).wrappedValue = 3
            backend = store.backend
            _ = try store.backend.load()
            store.backend.observeChanges {}
        }
        #expect(suite != nil, "the backend keeps the suite")
        #expect(try backend?.load() == ["count": .integer(3)])
        let kept = try #require(backend)
        #expect(DefaultsStore(backend: kept)[DefaultsKey<Int>("count", default: 0)] == 3)
        backend = nil
        _ = consume kept
        #expect(suite == nil, "the released suite is still alive")
    }

    @Test func aProgramsBackendPassesTheKitAndServesStores() throws {
        let storage = SharedMemoryBackend.Storage()
        let failures = DefaultsBackendConformance.check(
            makeBackend: { SharedMemoryBackend(location: "kit.\(UUID())", storage: storage) },
            reopen: { SharedMemoryBackend(location: $0.location, storage: storage) })
        #expect(failures.isEmpty, "\(failures)")

        // Two "machines": two states on one suite, each with its own handle on the storage.
        let location = "fleet.\(UUID())"
        let machineA = DefaultsStore(backend: SharedMemoryBackend(location: location, storage: storage))
        #expect(
            DefaultsStore(backend: SharedMemoryBackend(location: location, storage: storage)).backend.location
                == location)
        let other = SharedMemoryBackend(location: location, storage: storage)
        let limit = DefaultsKey<Int>("limit", default: 10, store: machineA)
        let heard = Collected<Int>()
        let observation = machineA.observe(limit) { heard.append($0.newValue) }
        defer { observation.cancel() }
        _ = try other.commit(["limit": .integer(50)], before: .now + .seconds(60)) { _ in }
        #expect(eventually { heard.all == [50] })
        #expect(machineA[limit] == 50)
        // A coalesced write reaches the backend at the flush.
        machineA[limit] = 60
        try machineA.flush()
        #expect(try other.load()["limit"] == .integer(60))
        #expect(machineA.backend.location == location)
    }

    @Test func anUnreachableBackendServesDefaultsAndKeepsWritesUntilItIsBack() throws {
        let storage = SharedMemoryBackend.Storage()
        let backend = SharedMemoryBackend(location: "outage.\(UUID())", storage: storage)
        _ = try backend.commit(["kept": .integer(1)], before: .now + .seconds(60)) { _ in }
        storage.lock.withLock { storage.isUnreachable = true }
        let store = DefaultsStore(backend: backend)
        let kept = DefaultsKey<Int>("kept", default: 0, store: store)
        let written = DefaultsKey<String>("written", default: "", store: store)
        let (_, reports) = ReportedErrors.during {
            #expect(store[kept] == 0)
            store[written] = "while unreachable"
            #expect(store[written] == "while unreachable")
            #expect(throws: DefaultsError.self) { try store.flush() }
        }
        #expect(!reports.isEmpty)
        storage.lock.withLock { storage.isUnreachable = false }
        try store.flush()
        #expect(try backend.load() == ["kept": .integer(1), "written": .string("while unreachable")])
        store.refresh()
        #expect(store[kept] == 1)
    }

    /// A program's backend may take seconds to fail a load (a server that accepts connections
    /// and never answers): it is not asked again on every read, which each waited for it, but
    /// after a growing pause, and reads meanwhile give defaults at once.
    @Test func failedLoadsOfAProgramsBackendAreNotTriedOnEveryRead() async throws {
        let storage = SharedMemoryBackend.Storage()
        let backend = SharedMemoryBackend(location: "slow-loads.\(UUID())", storage: storage)
        _ = try backend.commit(["kept": .integer(1)], before: .now + .seconds(60)) { _ in }
        storage.lock.withLock {
            storage.isUnreachable = true
            storage.loads = 0
        }
        let store = DefaultsStore(backend: backend)
        let kept = DefaultsKey<Int>("kept", default: 0, store: store)
        let (_, reports) = ReportedErrors.during {
            for _ in 0..<50 { #expect(store[kept] == 0) }
        }
        #expect(reports.count == 1)
        #expect(storage.lock.withLock { storage.loads } == 1)
        try await Task.sleep(for: .milliseconds(600))
        #expect(store[kept] == 0)
        #expect(storage.lock.withLock { storage.loads } == 2)
        storage.lock.withLock { storage.isUnreachable = false }
        #expect(await eventually(seconds: 10) { store[kept] == 1 })
    }

    /// The first write to a suite loads it, as a first read does; a suite once loaded stays
    /// loaded, and no later write or read asks the backend again.
    @Test func aFirstWriteLoadsTheSuiteAndNoUseLoadsItAgain() throws {
        let storage = SharedMemoryBackend.Storage()
        let backend = SharedMemoryBackend(location: "write-loads.\(UUID())", storage: storage)
        _ = try backend.commit(["other": .integer(1)], before: .now + .seconds(60)) { _ in }
        storage.lock.withLock { storage.loads = 0 }
        let store = DefaultsStore(backend: backend)
        let count = DefaultsKey<Int>("count", default: 0, store: store)
        let other = DefaultsKey<Int>("other", default: 0, store: store)
        #expect(storage.lock.withLock { storage.loads } == 0)
        store[count] = 1
        #expect(storage.lock.withLock { storage.loads } == 1)
        for value in 2...50 { store[count] = value }
        #expect(store[other] == 1)
        #expect(store[count] == 50)
        store.removeAll()
        #expect(store[other] == 0)
        #expect(storage.lock.withLock { storage.loads } == 1)
    }

    @Test func failedCommitsAreRetriedUntilTheBackendIsBackAndReportedOncePerOutage() async throws {
        let storage = SharedMemoryBackend.Storage()
        let backend = SharedMemoryBackend(location: "retry.\(UUID())", storage: storage)
        let store = DefaultsStore(backend: backend, durability: .coalesced(within: .milliseconds(10)))
        let counter = DefaultsKey<Int>("counter", default: 0, store: store)
        #expect(store[counter] == 0)
        storage.lock.withLock { storage.isUnreachable = true }
        try await ReportedErrors.naming(backend.location) { recorder in
            for value in 1...5 {
                store[counter] = value
                try await Task.sleep(for: .milliseconds(100))
            }
            // Retries ran (0.1 s, 0.2 s, …) and failed: one report for the outage.
            #expect(recorder.all.count == 1, "\(recorder.all)")
            #expect(store[counter] == 5)
            storage.lock.withLock { storage.isUnreachable = false }
            // No write, no flush: the retry commits the pending change once the backend is back.
            #expect(await eventually(seconds: 10) { (try? backend.load())?["counter"] == .integer(5) })
            // A later outage is reported again.
            storage.lock.withLock { storage.isUnreachable = true }
            store[counter] = 6
            #expect(await eventually { recorder.all.count == 2 })
            storage.lock.withLock { storage.isUnreachable = false }
            #expect(await eventually(seconds: 10) { (try? backend.load())?["counter"] == .integer(6) })
        }
    }

    @Test func anUpdateWhoseCommitABackendRetriesCountsOnceAndKeepsWhatItTookIn() throws {
        let storage = SharedMemoryBackend.Storage()
        let backend = SharedMemoryBackend(location: "rerun.\(UUID())", storage: storage)
        let store = DefaultsStore(backend: backend, durability: .coalesced(within: .seconds(60)))
        let counter = DefaultsKey<Int>("counter", default: 0, store: store)
        let other = DefaultsKey<String>("other", default: "", store: store)
        let nested = DefaultsKey<Int>("nested", default: 0, store: store)
        storage.lock.withLock { storage.runsLost = 2 }
        var runs = 0
        store.update(counter) { value in
            runs += 1
            // Stands for another thread's write, made while the first run was under way and
            // taken into the commit by the flush below: only that run sees it.
            if runs == 1 { store[other] = "written during the first run" }
            store.update(nested) { $0 += 10 }
            try? store.flush()
            value += 1
        }
        #expect(runs == 3)
        #expect(
            try backend.load() == [
                "counter": .integer(1), "nested": .integer(10), "other": .string("written during the first run"),
            ])
        #expect(store[counter] == 1)
        #expect(store[nested] == 10)
    }

    @Test func aValueTheBackendRefusesIsNotWrittenAndHoldsBackNothing() throws {
        /// Stores strings of 8 characters at most.
        struct ShortStrings: DefaultsBackend {
            let inner = SharedMemoryBackend(location: "short.\(UUID())")
            var location: String { inner.location }
            func load() throws(DefaultsError) -> [DefaultsStoredKey: DefaultsStoredValue] { try inner.load() }
            func commit(
                _ changes: [DefaultsStoredKey: DefaultsStoredValue?], before deadline: ContinuousClock.Instant,
                edit: (inout [DefaultsStoredKey: DefaultsStoredValue]) throws(DefaultsError) -> Void
            ) throws(DefaultsError) -> [DefaultsStoredKey: DefaultsStoredValue] {
                try inner.commit(changes, before: deadline) { values throws(DefaultsError) in
                    try edit(&values)
                    for (key, value) in values { try check(value, forKey: key) }
                }
            }
            func observeChanges(_ changed: @escaping @Sendable () -> Void) {}
            func check(_ value: DefaultsStoredValue, forKey key: DefaultsStoredKey) throws(DefaultsError) {
                if case .string(let text) = value, text.count > 8 {
                    throw .encodingFailed(key: key.name, underlying: CocoaError(.fileWriteOutOfSpace))
                }
            }
        }
        let backend = ShortStrings()
        let store = DefaultsStore(backend: backend, durability: .coalesced(within: .seconds(60)))
        let name = DefaultsKey<String>("name", default: "", store: store)
        let other = DefaultsKey<Int>("other", default: 0, store: store)
        let (_, reports) = ReportedErrors.during {
            store[name] = "short"
            store[name] = "far too long"
            store[other] = 1
            store.update(other) { $0 += 1 }
        }
        #expect(reports.count == 1)
        #expect(reports.first.map { "\($0)".contains("name") } == true)
        #expect(store[name] == "short")
        try store.flush()
        #expect(try backend.load() == ["name": .string("short"), "other": .integer(2)])
    }

    @Test func theKitFindsABackendThatBreaksItsPromises() {
        /// Loses the fraction of reals, and commits without a lock.
        final class CarelessBackend: DefaultsBackend, @unchecked Sendable {  // racy on purpose
            let location = "careless.\(UUID())"
            var values: [DefaultsStoredKey: DefaultsStoredValue] = [:]
            let lock = NSLock()

            func load() throws(DefaultsError) -> [DefaultsStoredKey: DefaultsStoredValue] { lock.withLock { values } }

            func commit(
                _ changes: [DefaultsStoredKey: DefaultsStoredValue?], before deadline: ContinuousClock.Instant,
                edit: (inout [DefaultsStoredKey: DefaultsStoredValue]) throws(DefaultsError) -> Void
            ) throws(DefaultsError) -> [DefaultsStoredKey: DefaultsStoredValue] {
                var current = lock.withLock { values }
                for (key, value) in changes {
                    if case .real(let number)? = value {
                        current[key] = .real(number.rounded(.towardZero))
                    } else {
                        current[key] = value
                    }
                }
                try edit(&current)
                usleep(1_000)
                lock.withLock { values = current }
                return current
            }

            func observeChanges(_ changed: @escaping @Sendable () -> Void) {}
        }
        let failures = DefaultsBackendConformance.check(makeBackend: { CarelessBackend() })
        let names = Set(failures.map(\.check))
        #expect(names.contains("every value is kept exactly"), "\(failures)")
        #expect(names.contains("concurrent read-modify-writes lose nothing"), "\(failures)")
        #expect(!names.contains("a new suite is empty"))
    }
}
