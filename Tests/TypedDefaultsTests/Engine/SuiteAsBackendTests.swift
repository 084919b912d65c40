import Foundation
import Testing
import TypedDefaultsTestSupport

@testable import TypedDefaults
@testable import TypedDefaultsStorage

/// A backend of the program's that forwards to another (logging, metrics, encryption would
/// wrap the same way): a store made on it has a state of its own.
struct ForwardingBackend: DefaultsBackend {
    let inner: any DefaultsBackend
    var location: String { "forwarding:" + inner.location }
    func load() throws(DefaultsError) -> [DefaultsStoredKey: DefaultsStoredValue] { try inner.load() }
    func commit(
        _ changes: [DefaultsStoredKey: DefaultsStoredValue?], before deadline: ContinuousClock.Instant,
        edit: (inout [DefaultsStoredKey: DefaultsStoredValue]) throws(DefaultsError) -> Void
    ) throws(DefaultsError) -> [DefaultsStoredKey: DefaultsStoredValue] {
        try inner.commit(changes, before: deadline, edit: edit)
    }
    func observeChanges(_ changed: @escaping @Sendable () -> Void) { inner.observeChanges(changed) }
}

/// A store's backend is its suite seen as a ``DefaultsBackend``: it tells a store made over it (or
/// over a backend that wraps it) of every change, and each suite with no file has a location of
/// its own.
@Suite struct SuiteAsBackendTests {
    /// `DefaultsBackend.observeChanges`: "calling `changed` each time something other than this
    /// backend's own commits may have changed the stored values". A write through the store the
    /// backend came from is such a change; a store on a backend that forwards to it must see it.
    @Test func aStoreOnAWrapperOfAStoresBackendSeesTheStoresWrites() throws {
        let store = DefaultsStore.inMemory()
        let count = DefaultsKey<Int>("count", default: 0)
        let wrapped = DefaultsStore(backend: ForwardingBackend(inner: store.backend), durability: .immediate)
        #expect(wrapped[count] == 0)
        store[count] = 5
        try store.flush()
        #expect(eventually { wrapped[count] == 5 }, "the wrapper's store still reads \(wrapped[count])")
    }

    /// The same, through the conformance kit, with the store's own handle as the "other" one.
    @Test func theKitsOtherHandleCheckOnAStoresBackendAndItsStore() {
        let failures = DefaultsBackendConformance.check(
            makeBackend: { DefaultsStore.inMemory().backend },
            reopen: { backend in DefaultsStore(backend: backend).backend })
        #expect(failures.isEmpty, "\(failures)")
    }

    /// The kit as a program would run it on a named suite's backend, with only public API: the
    /// other handle is the backend of another store on the same suite name.
    @Test(.plistFilesOnly("a named suite's file")) func theKitOnANamedSuitesBackendReopenedByName() {
        var names: [String] = []
        defer { for name in names { TestSuite.removeFiles(of: PreferencesFolder.file(forSuite: name)) } }
        let failures = DefaultsBackendConformance.check(
            makeBackend: {
                let name = "typeddefaults-tests.suite-as-backend.\(UUID().uuidString)"
                names.append(name)
                return try DefaultsStore(suiteName: name).backend
            },
            reopen: { backend in
                let name = URL(fileURLWithPath: backend.location).deletingPathExtension().lastPathComponent
                return try DefaultsStore(suiteName: name).backend
            })
        #expect(failures.isEmpty, "\(failures)")
    }

    /// `DefaultsBackend.location`: stores made with backends of one location share one state, and
    /// the kit asks for "a location no other suite has". Two in-memory suites are two suites.
    @Test func twoInMemorySuitesBackendsAreTwoLocations() {
        let (first, second) = (DefaultsStore.inMemory(), DefaultsStore.inMemory())
        let count = DefaultsKey<Int>("count", default: 0)
        first[count] = 1
        second[count] = 2
        #expect(first.backend.location != second.backend.location, "both are \(first.backend.location)")
        let (a, b) = (
            DefaultsStore(backend: ForwardingBackend(inner: first.backend)),
            DefaultsStore(backend: ForwardingBackend(inner: second.backend))
        )
        #expect(a[count] == 1)
        #expect(b[count] == 2, "a store over the second suite reads the first suite's \(b[count])")
    }

    /// A backend value keeps an in-memory suite, and an observation made through it lives as
    /// long as that value: it stops when the value is released, and the suite goes with it.
    @Test func anObservationThroughABackendLivesAsLongAsTheBackend() throws {
        weak var suite: SuiteState?
        let told = Counter()
        do {
            let store = DefaultsStore.inMemory()
            suite = store.state
            let backend = store.backend
            backend.observeChanges { told.increment() }
            #expect(store.state.observers.isEmpty == false)
        }
        #expect(suite == nil, "the suite outlived every store and backend of it")
    }
}
