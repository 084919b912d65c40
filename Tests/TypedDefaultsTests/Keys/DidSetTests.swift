import Foundation
import Testing
import TypedDefaults

extension DefaultsKeys {
    static let watched = DefaultsKey<Int>("didSet.watched", default: 1).didSet { new, old in
        DidSetTests.watchedChanges.append((new, old))
    }
    static let ruled = DefaultsKey<Int>("didSet.ruled", default: 0).clamped(to: 0...10).didSet { new, old in
        DidSetTests.ruledChanges.append((new, old))
    }
    static let reentrant = DefaultsKey<Int>("didSet.reentrant", default: 0).didSet { new, _ in
        // Reads and writes settings from inside the callback: no lock is held.
        if let store = DidSetTests.reentrantStore.all.last { store[.mirrored] = new * 2 }
    }
    static let mirrored = DefaultsKey<Int>("didSet.mirrored", default: 0)
}

@Suite(.serialized) struct DidSetTests {
    static let watchedChanges = Collected<(new: Int, old: Int)>()
    static let ruledChanges = Collected<(new: Int, old: Int)>()
    static let reentrantStore = Collected<DefaultsStore>()

    @Test func firesForWritesThroughEveryHandleAndResets() {
        let store = DefaultsStore.inMemory()
        let start = Self.watchedChanges.all.count
        @UserDefault(.watched, store: store) var watched
        watched = 2  // through the property
        store[.watched] = 3  // through the subscript
        UserDefault(wrappedValue: 0, "didSet.watched", store: store).wrappedValue = 4  // by name
        store.update(.watched) { $0 += 1 }
        $watched.reset()  // the default comes back as the new value
        let changes = Self.watchedChanges.all.dropFirst(start)
        #expect(changes.map(\.new) == [2, 3, 4, 5, 1], "synchronous: done when the write returns")
        #expect(changes.map(\.old) == [1, 2, 3, 4, 5])
    }

    @Test func seesValuesAsTheKeyReadsThem() {
        let store = DefaultsStore.inMemory()
        let start = Self.ruledChanges.all.count
        store[.ruled] = 50
        UserDefault(wrappedValue: 0, "didSet.ruled", store: store).wrappedValue = -7
        let changes = Self.ruledChanges.all.dropFirst(start)
        #expect(changes.map(\.new) == [10, 0])
        #expect(changes.map(\.old) == [0, 10])
    }

    @Test func firesOnTheWritingThread() {
        let store = DefaultsStore.inMemory()
        let pairs = Collected<(writer: Int?, value: Int)>()
        let property = UserDefault(wrappedValue: -1, "threads", store: store).didSet { new, _ in
            pairs.append((Thread.current.threadDictionary["writer"] as? Int, new))
        }
        DispatchQueue.concurrentPerform(iterations: 20) { index in
            Thread.current.threadDictionary["writer"] = index
            property.wrappedValue = index
        }
        #expect(pairs.all.count == 20)
        #expect(pairs.all.allSatisfy { $0.writer == $0.value }, "each callback ran on its writer's thread")
    }

    @Test func aCallbackMayUseTheStore() {
        let store = DefaultsStore.inMemory()
        Self.reentrantStore.append(store)
        store[.reentrant] = 21
        #expect(store[.mirrored] == 42)
    }

    @Test func changesTakenInByARefreshFireToo() throws {
        let suite = try TestSuite()
        let seen = Collected<Int>()
        let property = UserDefault(wrappedValue: 0, "external", store: suite.store).didSet { new, _ in
            seen.append(new)
        }
        _ = property.wrappedValue
        suite.defaults.set(9, forKey: "external")
        suite.defaults.synchronize()
        suite.store.refresh()
        #expect(seen.all == [9])
    }

    @Test(
        .plistFilesOnly("`UserDefaults` does not tell of other processes' writes (Apple's neither)"),
        .tags(.childProcess),
        .startsProcesses) func changesByAnotherProcessFire() async throws
    {
        let suite = try TestSuite()
        let seen = Collected<String>()
        let property = UserDefault(wrappedValue: "", "after", store: suite.store).didSet { new, _ in
            seen.append(new)
        }
        _ = property.wrappedValue
        let child = try await Probe.run("touch", suite.name)
        #expect(child.status == 0, "\(child.errors)")
        #expect(seen.wait(for: 1) == ["written"])
    }

    @Test func unreadableValuesArePassedAsTheDefault() throws {
        let suite = try TestSuite()
        suite.plant("not a number", forKey: "unreadable")
        let seen = Collected<(new: Int, old: Int)>()
        let property = UserDefault(wrappedValue: 5, "unreadable", store: suite.store).didSet { new, old in
            seen.append((new, old))
        }
        property.wrappedValue = 6
        UserDefault(wrappedValue: "", "unreadable", store: suite.store).wrappedValue = "seven"
        #expect(seen.all.map(\.old) == [5, 6])
        #expect(seen.all.map(\.new) == [6, 5])
    }

    @Test func aPropertysCallbackEndsWithTheProperty() {
        let store = DefaultsStore.inMemory()
        let seen = Collected<Int>()
        var property: UserDefault<Int>? = UserDefault(wrappedValue: 0, "lifetime", store: store).didSet { new, _ in
            seen.append(new)
        }
        let other = UserDefault(wrappedValue: 0, "lifetime", store: store)
        other.wrappedValue = 1
        property = nil
        other.wrappedValue = 2
        #expect(property == nil)
        #expect(seen.all == [1])
    }

    @Test func callbacksRunInDeclarationOrderOnceEach() {
        let store = DefaultsStore.inMemory()
        let order = Collected<String>()
        let key = DefaultsKey<Int>("didSet.order", default: 0)
            .didSet { _, _ in order.append("first") }
            .didSet { _, _ in order.append("second") }
        _ = UserDefault(key, store: store)
        _ = UserDefault(key, store: store)  // bound again: still once
        store[key] = 1
        #expect(order.all == ["first", "second"])
    }

    @Test func aKeyUsedInOneStoreIsNotWatchedInAnother() {
        let first = DefaultsStore.inMemory()
        let second = DefaultsStore.inMemory()
        let seen = Collected<Int>()
        let key = DefaultsKey<Int>("didSet.stores", default: 0).didSet { new, _ in seen.append(new) }
        first[key] = 1
        second[key] = 2
        UserDefault(wrappedValue: 0, "didSet.stores", store: first).wrappedValue = 3
        #expect(seen.all == [1, 2, 3], "each store where the key is used")
    }
}
