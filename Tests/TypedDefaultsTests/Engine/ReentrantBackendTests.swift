import Foundation
import Testing

@testable import TypedDefaults

/// A program's backend that calls back into its own store from inside `commit()`, on the thread
/// the store called it on: a flush, an immediate write, an update. The store's commit lock is
/// held by that very thread; each such call waited it out (5 s) before, and an update was lost.
@Suite struct ReentrantBackendTests {
    enum Reentry: String, CaseIterable {
        case flush, immediateWrite, update
    }

    /// Shared memory, and after each commit that changes `count`, one call back into the store.
    final class Reentrant: DefaultsBackend, @unchecked Sendable {  // `store` only under `lock`
        let inner: SharedMemoryBackend
        let reentry: Reentry
        private let lock = NSLock()
        private var storeHandle: DefaultsStore?

        init(_ reentry: Reentry) {
            inner = SharedMemoryBackend(location: "reentrant.\(reentry).\(UUID())")
            self.reentry = reentry
        }

        var location: String { inner.location }
        var store: DefaultsStore? {
            get { lock.withLock { storeHandle } }
            set { lock.withLock { storeHandle = newValue } }
        }

        func load() throws(DefaultsError) -> [DefaultsStoredKey: DefaultsStoredValue] { try inner.load() }

        func commit(
            _ changes: [DefaultsStoredKey: DefaultsStoredValue?], before deadline: ContinuousClock.Instant,
            edit: (inout [DefaultsStoredKey: DefaultsStoredValue]) throws(DefaultsError) -> Void
        ) throws(DefaultsError) -> [DefaultsStoredKey: DefaultsStoredValue] {
            let values = try inner.commit(changes, before: deadline, edit: edit)
            guard changes["count"] != nil, let store else { return values }
            switch reentry {
            case .flush: try? store.flush()
            case .immediateWrite:
                UserDefault(wrappedValue: 0, "echo", store: store.durability(.immediate)).wrappedValue += 1
            case .update: UserDefault(wrappedValue: 0, "tally", store: store).update { $0 += 1 }
            }
            return values
        }

        func observeChanges(_ changed: @escaping @Sendable () -> Void) {}
    }

    @Test(arguments: Reentry.allCases) func aCommitThatCallsBackIntoItsStoreStallsNothing(reentry: Reentry) throws {
        let backend = Reentrant(reentry)
        let store = DefaultsStore(backend: backend, durability: .immediate)
        backend.store = store
        let count = DefaultsKey<Int>("count", default: 0, store: store)
        let start = Date()
        let (_, reports) = ReportedErrors.during {
            for value in 1...5 { store[count] = value }
        }
        // Each write waited 5 s for the lock its own thread held: 25 s in all.
        #expect(Date().timeIntervalSince(start) < 4, "\(reports)")
        #expect(store[count] == 5)
        #expect(eventually { (try? backend.inner.load())?["count"] == .integer(5) })
        if reentry == .immediateWrite {
            // Committed after the commit it was asked for in.
            #expect(eventually { (try? backend.inner.load())?["echo"] != nil })
        }
    }
}
