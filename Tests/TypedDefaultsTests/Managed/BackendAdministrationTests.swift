import Foundation
import Testing

@testable import TypedDefaults

extension DefaultsKeys {
    fileprivate static let telemetry = DefaultsKey<Bool>("telemetry", default: true)
    fileprivate static let channel = DefaultsKey<String>("updateChannel", default: "beta")
    fileprivate static let proxy = DefaultsKey<String>("net.proxy", default: "direct")
    fileprivate static let free = DefaultsKey<Int>("free", default: 7)
}

/// A backend in memory that keeps an administrator's layer the test sets, and announces a
/// change of it as a database's notification would.
private final class AdministeredBackend: DefaultsBackend, @unchecked Sendable {
    // `layer`, `reads` and `handlers` only under `lock`; `inner` is Sendable.
    let inner = SharedMemoryBackend(location: "administered.\(UUID())")
    private let lock = NSLock()
    private var layer: Result<DefaultsBackendAdministration?, DefaultsError> = .success(nil)
    private var handlers: [@Sendable () -> Void] = []
    private var heldLoads: (waiting: DispatchSemaphore, release: DispatchSemaphore, failing: Bool)?
    private var readCount = 0
    var reads: Int { lock.withLock { readCount } }

    var location: String { inner.location }
    var source: String { "\(location) administrator table" }

    func load() throws(DefaultsError) -> [DefaultsStoredKey: DefaultsStoredValue] {
        if let held = lock.withLock({ heldLoads }) {
            held.waiting.signal()
            _ = held.release.wait(timeout: .now() + 10)
            if held.failing { throw SharedMemoryBackend.unreachable(location) }
        }
        return try inner.load()
    }

    /// Makes the next load wait, as one from a database that is restarting does, until
    /// ``releaseLoad()`` (10 s at most), then fail, or, not `failing`, load; it signals the
    /// semaphore returned as it starts to wait.
    func holdLoads(failing: Bool = true) -> DispatchSemaphore {
        let held = (waiting: DispatchSemaphore(value: 0), release: DispatchSemaphore(value: 0), failing: failing)
        lock.withLock { heldLoads = held }
        return held.waiting
    }

    /// Lets the load held go on, and those after it load as before.
    func releaseLoad() {
        let held = lock.withLock {
            defer { heldLoads = nil }
            return heldLoads
        }
        held?.release.signal()
    }

    func commit(
        _ changes: [DefaultsStoredKey: DefaultsStoredValue?], before deadline: ContinuousClock.Instant,
        edit: (inout [DefaultsStoredKey: DefaultsStoredValue]) throws(DefaultsError) -> Void
    ) throws(DefaultsError) -> [DefaultsStoredKey: DefaultsStoredValue] {
        try inner.commit(changes, before: deadline, edit: edit)
    }

    func observeChanges(_ changed: @escaping @Sendable () -> Void) {
        lock.withLock { handlers.append(changed) }
    }

    func loadAdministration() throws(DefaultsError) -> DefaultsBackendAdministration? {
        try lock.withLock {
            readCount += 1
            return layer
        }.get()
    }

    /// Sets the layer, or makes reading it fail, and announces the change when asked.
    func administer(_ layer: Result<DefaultsBackendAdministration?, DefaultsError>, announcing: Bool = false) {
        let handlers = lock.withLock {
            self.layer = layer
            return self.handlers
        }
        if announcing { handlers.forEach { $0() } }
    }

    /// The organisation's layer: a lock to a value, a default and a prefix lock.
    var organisation: DefaultsBackendAdministration {
        DefaultsBackendAdministration(
            source: source, defaults: ["telemetry": .boolean(false), "updateChannel": .string("stable")],
            lockedKeys: ["telemetry"], lockedPrefixes: ["net."])
    }
}

/// The administrator's layer a program's backend keeps, read by the engine through
/// `DefaultsBackend.loadAdministration()` and enforced as the administrator's files are.
@Suite struct BackendAdministrationTests {
    @Test func theLayerIsReadAtFirstUseAndEnforcedByTheStore() throws {
        let backend = AdministeredBackend()
        backend.administer(.success(backend.organisation))
        let store = DefaultsStore(backend: backend, durability: .immediate)
        #expect(store[.channel] == "stable")
        #expect(store.valueSource(of: .channel) == .administratorDefault(from: backend.source))
        #expect(store[.telemetry] == false)
        #expect(store.valueSource(of: .telemetry) == .locked(by: backend.source))
        #expect(!store.isWritable(.proxy) && store.isWritable(.free))
        let (_, reports) = ReportedErrors.during {
            store[.telemetry] = true
            store[.proxy] = "socks://elsewhere"
        }
        #expect(reports.count == 2)
        #expect(reports.allSatisfy { if case .locked(_, backend.source) = $0 { true } else { false } }, "\(reports)")
        let refused = try #require(throws: DefaultsError.self) {
            try store.editStoredValues { values in
                values["free"] = .integer(1)
                values["telemetry"] = .boolean(true)
            }
        }
        guard case .locked("telemetry", backend.source) = refused else {
            Issue.record("not a lock's refusal: \(refused)")
            return
        }
        #expect(try backend.load().isEmpty, "the whole edit was refused")
        #expect(backend.reads == 1)
    }

    @Test func aBackendWithoutALayerReadsAsBefore() throws {
        let backend = SharedMemoryBackend(location: "unadministered.\(UUID())")
        #expect(try backend.loadAdministration() == nil)
        let store = DefaultsStore(backend: backend, durability: .immediate)
        store[.telemetry] = false
        #expect(store.valueSource(of: .telemetry) == .user)
        #expect(store.isWritable(.telemetry))
    }

    @Test func aLockTheBackendAnnouncesHidesTheUsersValueWhichShowsAgainOnceItGoes() async throws {
        let backend = AdministeredBackend()
        let store = DefaultsStore(backend: backend, durability: .immediate)
        store[.telemetry] = true
        store[.proxy] = "socks://mine"
        let heard = Heard()
        let observation = store.observe(.telemetry) { change in heard.add(change.newValue) }
        defer { observation.cancel() }
        backend.administer(.success(backend.organisation), announcing: true)
        #expect(await eventually(seconds: 10) { !store.isWritable(.telemetry) })
        #expect(store[.telemetry] == false && store[.proxy] == "direct")
        #expect(store.userValue(of: .telemetry) == true, "the user's value is kept under the lock")
        #expect(await eventually(seconds: 10) { heard.values == [false] })
        backend.administer(.success(nil), announcing: true)
        #expect(await eventually(seconds: 10) { store.isWritable(.telemetry) })
        #expect(store[.telemetry] == true && store[.proxy] == "socks://mine")
        #expect(await eventually(seconds: 10) { heard.values == [false, true] })
    }

    @Test func aLayerThatCannotBeReadIsReportedOnceAndTheLastOneKept() throws {
        let backend = AdministeredBackend()
        backend.administer(.success(backend.organisation))
        let store = DefaultsStore(backend: backend, durability: .immediate)
        #expect(!store.isWritable(.telemetry))
        let unreachable = DefaultsError.readFailed(path: backend.location, underlying: CocoaError(.fileReadUnknown))
        backend.administer(.failure(unreachable))
        let (_, failures) = ReportedErrors.during {
            store.refresh()
            store.refresh()
        }
        #expect(failures.count == 1, "\(failures)")
        #expect(!store.isWritable(.telemetry) && store[.telemetry] == false, "the last layer read stays")
        backend.administer(.success(nil))
        let (_, none) = ReportedErrors.during { store.refresh() }
        #expect(none.isEmpty && store.isWritable(.telemetry))
        backend.administer(.failure(unreachable))
        let (_, again) = ReportedErrors.during { store.refresh() }
        #expect(again.count == 1, "a new run of failures is reported")
    }

    /// A database restarting under a fleet's machine: a refresh finds the layer unreadable and
    /// waits for the values, while an update on another thread goes through (its commit waits
    /// the restart out). The update read nothing, and the refresh's values fail too: nothing is
    /// reported, and the layer is not read again until the backend answers.
    @Test func anUpdateDuringARefreshWaitingForTheBackendReportsNoFailureOfTheLayer() async {
        let backend = AdministeredBackend()
        backend.administer(.success(backend.organisation))
        let store = DefaultsStore(backend: backend, durability: .immediate)
        #expect(store[.free] == 7)
        await ReportedErrors.naming(backend.location) { recorder in
            backend.administer(.failure(.readFailed(path: backend.location, underlying: CocoaError(.fileReadUnknown))))
            // On threads of their own: a task waiting its turn on a busy pool, or a block on
            // Dispatch's few threads, would start after the window below, or hold the refresh's
            // commit lock longer than the update waits for it.
            let (reads, readsAfter, finished) = await withCheckedContinuation { continuation in
                onThread {
                    let waiting = backend.holdLoads()
                    let refreshed = onThread { store.refresh() }
                    let held = waiting.wait(timeout: .now() + 10) == .success
                    let reads = backend.reads
                    let updated = onThread { store.update(.free) { $0 += 1 } }
                    // The update waits for the refresh's commit lock; a read of the layer it
                    // made, and reported, would come before. Half a second for it to show.
                    let window = ContinuousClock.now + .milliseconds(500)
                    while held, backend.reads == reads, ContinuousClock.now < window { usleep(2_000) }
                    backend.releaseLoad()
                    let finished =
                        held && refreshed.wait(timeout: .now() + 10) == .success
                        && updated.wait(timeout: .now() + 10) == .success
                    continuation.resume(returning: (reads, backend.reads, finished))
                }
            }
            #expect(finished)
            #expect(readsAfter == reads, "the layer was read again while the backend could not be reached")
            #expect(recorder.all.isEmpty, "\(recorder.all)")
        }
        #expect(store[.free] == 8)
    }

    /// The backend's notice of a change, heard while the suite's first load waits for the
    /// values, finds the layer still failing and nothing loaded: it leaves the failure to the
    /// load, which reads the values, reads the layer again and reports it.
    @Test func aChangeHeardDuringTheFirstLoadLeavesTheLayersFailureToTheLoad() async {
        let backend = AdministeredBackend()
        let failure = DefaultsError.readFailed(path: backend.location, underlying: CocoaError(.fileReadUnknown))
        backend.administer(.failure(failure))
        let store = DefaultsStore(backend: backend, durability: .immediate)
        await ReportedErrors.naming(backend.location) { recorder in
            let (readsDuringLoad, finished) = await withCheckedContinuation { continuation in
                onThread {
                    let waiting = backend.holdLoads(failing: false)
                    let read = onThread { _ = store[.channel] }
                    let held = waiting.wait(timeout: .now() + 10) == .success
                    // Announced changes are taken in on a thread of the store's: the notice's
                    // read of the layer is waited for (10 s at most).
                    backend.administer(.failure(failure), announcing: true)
                    _ = eventually(seconds: 10) { backend.reads >= 2 }
                    // The notice's reload, done with the layer, finds nothing loaded and returns.
                    usleep(50_000)
                    let readsDuringLoad = backend.reads
                    backend.releaseLoad()
                    let finished = held && read.wait(timeout: .now() + 10) == .success
                    continuation.resume(returning: (readsDuringLoad, finished))
                }
            }
            #expect(finished)
            #expect(readsDuringLoad == 2, "read at first use and on the notice")
            #expect(backend.reads == 3, "read again once the values were")
            #expect(recorder.all.count == 1, "\(recorder.all)")
        }
    }

    /// A backend that cannot be reached at first use is reported once: the layer's failure
    /// waits for the values, which fail too. The first read of the values that succeeds reads
    /// the layer again, and what it locks is enforced from then on: a refresh's, a use's once
    /// the load is due again (0.5 s after the failure), or, within those 0.5 s, the commit of a
    /// write or an update, which gives the suite its first contents.
    @Test(arguments: ["refresh", "use", "write", "update"])
    func aBackendThatCannotBeReachedAtFirstUseIsReportedOnceAndItsLayerReadOnceItAnswers(readBy: String) {
        let backend = AdministeredBackend()
        let storage = backend.inner.storage
        storage.lock.withLock { storage.isUnreachable = true }
        backend.administer(.failure(SharedMemoryBackend.unreachable(backend.location)))
        let store = DefaultsStore(backend: backend, durability: .immediate)
        let (_, reports) = ReportedErrors.during { #expect(store[.channel] == "beta") }
        #expect(reports.count == 1, "\(reports)")
        storage.lock.withLock { storage.isUnreachable = false }
        backend.administer(.success(backend.organisation))
        let (locked, none) = ReportedErrors.during { () -> Bool in
            switch readBy {
            case "refresh": store.refresh()
            case "write": store[.free] = 1
            case "update": store.update(.free) { $0 += 1 }
            default: _ = eventually(seconds: 10) { store[.channel] == "stable" }
            }
            return !store.isWritable(.telemetry)
        }
        #expect(locked && store[.channel] == "stable")
        #expect(none.isEmpty, "\(none)")
        #expect(store[.free] == ["write": 1, "update": 8][readBy, default: 7])
    }

    @Test func aFirstReadThatFailsLeavesTheSuiteUnlockedUntilAReadSucceeds() throws {
        let backend = AdministeredBackend()
        backend.administer(.failure(.readFailed(path: backend.location, underlying: CocoaError(.fileReadUnknown))))
        let store = DefaultsStore(backend: backend, durability: .immediate)
        let (_, failures) = ReportedErrors.during { #expect(store[.channel] == "beta") }
        #expect(failures.count == 1)
        backend.administer(.success(backend.organisation))
        store.refresh()
        #expect(store[.channel] == "stable" && !store.isWritable(.telemetry))
    }
}

/// Runs `body` on a thread of its own; the semaphore returned is signalled when it returns.
@discardableResult
private func onThread(_ body: @escaping @Sendable () -> Void) -> DispatchSemaphore {
    let finished = DispatchSemaphore(value: 0)
    Thread {
        body()
        finished.signal()
    }.start()
    return finished
}

/// Values an observer heard, from any thread.
private final class Heard: @unchecked Sendable {  // `all` only under `lock`.
    private let lock = NSLock()
    private var all: [Bool] = []

    func add(_ value: Bool) { lock.withLock { all.append(value) } }
    var values: [Bool] { lock.withLock { all } }
}
