import Foundation
import Testing
import TypedDefaultsTestSupport

@testable import TypedDefaults

enum NFLTeam: String, Codable, DefaultsValueConvertible { case bills, jets, dolphins, patriots }

/// JSON has no NaN, so a gauge at NaN cannot be encoded.
struct Gauge: Codable, Equatable, DefaultsValueConvertible { var level: Double }

struct Roster: Codable, Equatable, DefaultsValueConvertible {
    var team: NFLTeam
    var players: [String]
}

// Key names are process-wide (a name declared with two types is reported), so every test
// declares keys of its own.
extension DefaultsKeys {
    static let preferredName = DefaultsKey<String>("keys.preferredName", default: "Bobbie Wasabi")
    static let launchCount = DefaultsKey<Int>("keys.launchCount", default: 0)
    static let myTeam = DefaultsKey<NFLTeam?>("keys.myNFLTeam")
    static let roster = DefaultsKey<Roster>("keys.roster", default: Roster(team: .bills, players: []))
    static let fallbackOnly = DefaultsKey<Int>("keys.fallbackOnly", default: 5)
    static let initialStamp = DefaultsKey<Int>("keys.initialStamp", initialValue: 41).clamped(to: 0...40)
    static let initialMissing = DefaultsKey<Date>("keys.initialMissing", initialValue: Date())
    static let initialCorrupt = DefaultsKey<Int>("keys.initialCorrupt", initialValue: 1)
    static let registered = DefaultsKey<String>("keys.registered", default: "registered default")
    static let registeredCount = DefaultsKey<Int>("keys.registeredCount", initialValue: 3)
    static let unregistrable = DefaultsKey<Double>("keys.unregistrable", dynamicDefault: { 1 })
    static let unencodable = DefaultsKey<Gauge>("keys.unencodable", default: Gauge(level: .nan))
    static let notRegistered = DefaultsKey<String>("keys.notRegistered", default: "not registered")
    static let notRegisteredElsewhere = DefaultsKey<String>("keys.notRegisteredElsewhere", default: "registered once")
}

@Suite struct KeyTests {
    @Test func aTypedKeySnippetCompilesAndWorks() {
        let store = DefaultsStore.inMemory()
        @UserDefault(.preferredName, store: store) var preferredName
        #expect(preferredName == "Bobbie Wasabi")
        store[.launchCount] += 1
        store[.launchCount] += 1
        #expect(store[.launchCount] == 2)
        let team = store[.myTeam]
        #expect(team == nil)
        store[.myTeam] = .bills
        #expect(store[.myTeam] == .bills)

        preferredName = "Ada"
        #expect(store[.preferredName] == "Ada")
        store[.preferredName] = "Grace"
        #expect(preferredName == "Grace")
        #expect($preferredName.key == "keys.preferredName")
    }

    @Test func keysAreStaticAndSendable() async {
        let store = DefaultsStore.inMemory()
        let key: DefaultsKey<Int> = .launchCount
        let fromTask = await Task.detached { () -> Int in
            store[key] = 9
            return store[key]
        }.value
        #expect(fromTask == 9)
        #expect(store[.launchCount] == 9)
    }

    @Test func codableValuesThroughKeys() throws {
        let suite = try TestSuite()
        suite.store[.roster] = Roster(team: .jets, players: ["Ada", "Grace"])
        #expect(suite.store[.roster] == Roster(team: .jets, players: ["Ada", "Grace"]))
        #expect(
            try suite.flushedObject(forKey: "keys.roster") as? String == #"{"players":["Ada","Grace"],"team":"jets"}"#)
        suite.store.reset(.roster)
        #expect(suite.store[.roster] == Roster(team: .bills, players: []))
    }

    @Test func updateThroughAKeyIsAtomic() {
        let store = DefaultsStore.inMemory()
        DispatchQueue.concurrentPerform(iterations: 200) { _ in store.update(.launchCount) { $0 += 1 } }
        #expect(store[.launchCount] == 200)
    }

    @Test func oneNameWithTwoTypesInOneSuiteIsReported() {
        let store = DefaultsStore.inMemory()
        let (_, reported) = ReportedErrors.during {
            _ = store[DefaultsKey<Int>("keys.conflicting", default: 1)]
            _ = store[DefaultsKey<Int>("keys.conflicting", default: 2)]
            _ = store[DefaultsKey<String>("keys.conflicting", default: "one")]
            _ = store[DefaultsKey<String>("keys.conflicting", default: "two")]
        }
        #expect(reported.count == 1, "the same type twice is no conflict; another type is, reported once: \(reported)")
        guard case .keyTypeConflict(let key, let types)? = reported.first else {
            Issue.record("expected a key type conflict, got \(reported)")
            return
        }
        #expect(key == "keys.conflicting")
        #expect(types == ["Swift.Int", "Swift.String"])
    }

    @Test func anOptionalAndItsWrappedTypeConflict() {
        let store = DefaultsStore.inMemory()
        let (_, reported) = ReportedErrors.during {
            _ = store[DefaultsKey<Int>("keys.optionalConflict", default: 1)]
            _ = store[DefaultsKey<Int?>("keys.optionalConflict")]
        }
        #expect(reported.map(\.key) == ["keys.optionalConflict"])
    }

    /// A name is a key of one suite: two suites may store different types under it.
    @Test func oneNameWithTwoTypesInTwoSuitesIsNoConflict() throws {
        let (first, second) = (try TestSuite(), try TestSuite())
        let (_, reported) = ReportedErrors.during {
            first.store[DefaultsKey<Int>("shared", default: 1)] = 5
            second.store[DefaultsKey<String>("shared", default: "one")] = "five"
            #expect(first.store[DefaultsKey<Int>("shared", default: 1)] == 5)
            #expect(second.store[DefaultsKey<String>("shared", default: "one")] == "five")
        }
        #expect(reported.isEmpty, "\(reported)")
    }

    // MARK: The three kinds of default

    @Test func aFallbackIsNeverWritten() throws {
        let suite = try TestSuite()
        #expect(suite.store[.fallbackOnly] == 5)
        #expect(UserDefault(.fallbackOnly, store: suite.store).hasStoredValue == false)
        #expect(try suite.flushedObject(forKey: "keys.fallbackOnly") == nil)
    }

    /// `defaultValue` is what a read returns while nothing is stored, so with the rules applied,
    /// on a key, a property and a setting alike; the default as declared is kept beside it.
    @Test func theDefaultValueIsWhatAReadGivesWhileNothingIsStored() {
        let store = DefaultsStore.inMemory()
        let level = DefaultsKey<Int>("level", default: 50).clamped(to: 0...10)
        #expect((level.defaultValue, level.declaredDefaultValue) == (10, 50))
        let property = UserDefault(level, store: store)
        #expect((property.defaultValue, property.declaredDefaultValue) == (10, 50))
        #expect(property.wrappedValue == property.defaultValue)
        #expect(Setting(level, title: "Level", store: store).defaultValue == 10)
        let name = UserDefault<String?>("name", store: store).whenNil(use: "Ada")
        #expect(name.defaultValue == "Ada")
        #expect(name.declaredDefaultValue == nil)
        #expect(name.wrappedValue == "Ada")
    }

    @Test func aDynamicDefaultIsComputedOnEveryRead() {
        let store = DefaultsStore.inMemory()
        let calls = Counter()
        let key = DefaultsKey<Int>("keys.dynamic", dynamicDefault: { calls.increment() * 10 })
        let property = UserDefault(key, store: store)
        let first = property.wrappedValue
        let second = property.wrappedValue
        #expect(second > first, "computed again: \(first), \(second)")
        #expect(!property.hasStoredValue)
        property.wrappedValue = 7
        let callsBefore = calls.value
        #expect(property.wrappedValue == 7)
        #expect(calls.value == callsBefore, "not computed while a value is stored")
        property.reset()
        #expect(property.wrappedValue > 7)
    }

    @Test func anInitialValueIsStoredByTheFirstReadWithItsRules() throws {
        let suite = try TestSuite()
        let property = UserDefault(.initialStamp, store: suite.store)
        #expect(!property.hasStoredValue)
        #expect(property.wrappedValue == 40, "the rules apply to the initial value")
        #expect(property.hasStoredValue)
        #expect(try suite.flushedObject(forKey: "keys.initialStamp") as? Int == 40)
        property.wrappedValue = 7
        #expect(suite.store[.initialStamp] == 7)
    }

    @Test func anInitialValueIsStoredAfterAnotherHandleFoundNothing() {
        let store = DefaultsStore.inMemory()
        let plain = UserDefault(wrappedValue: -1, "keys.initialAfterMiss", store: store)
        #expect(plain.wrappedValue == -1)
        #expect(plain.wrappedValue == -1, "the miss is cached")
        let key = DefaultsKey<Int>("keys.initialAfterMiss", initialValue: 9)
        #expect(store[key] == 9)
        #expect(plain.wrappedValue == 9, "stored, not just returned")
    }

    @Test func anInitialValueStaysFixedOnceStored() {
        let store = DefaultsStore.inMemory()
        let first = store[.initialMissing]
        #expect(UserDefault(.initialMissing, store: store).hasStoredValue)
        let other = UserDefault(wrappedValue: Date.distantPast, "keys.initialMissing", store: store)
        #expect(other.wrappedValue == first, "stored, so every handle sees it")
    }

    @Test func anInitialValueIsStoredOnceAcrossThreads() {
        let store = DefaultsStore.inMemory()
        let key = DefaultsKey<UUID>("keys.initialThreads", initialValue: UUID())
        let seen = Collected<UUID>()
        DispatchQueue.concurrentPerform(iterations: 50) { _ in seen.append(UserDefault(key, store: store).wrappedValue)
        }
        #expect(Set(seen.all) == [key.defaultValue])
    }

    @Test func anInitialValueNeverReplacesUnreadableData() throws {
        let suite = try TestSuite()
        suite.plant("not a number", forKey: "keys.initialCorrupt")
        let before = try suite.fileBytes()
        let (value, reported) = ReportedErrors.during { suite.store[.initialCorrupt] }
        #expect(value == 1)
        #expect(reported.count == 1)
        #expect(try suite.fileBytes() == before, "stored data changed")
        #expect(throws: DefaultsError.self) { try UserDefault(.initialCorrupt, store: suite.store).load() }
    }

    @Test(
        .plistFilesOnly("an initial value is stored once across processes only under the plist file's lock"),
        .tags(.childProcess), .startsProcesses) func eachProcessSeesTheFirstStoredInitialValue() async throws
    {
        let suite = try TestSuite()
        let runs = try (0..<2).map { _ in try Probe.start("installID", suite.name) }
        let concurrent = runs.map { $0.waitForLine { $0.hasPrefix("installID ") } }
        #expect(concurrent[0] != nil)
        #expect(concurrent[0] == concurrent[1], "two first reads at once must agree")
        let later = try await Probe.run("installID", suite.name)
        #expect(later.output.split(separator: "\n").first.map(String.init) == concurrent[0])
        for run in runs { run.process.waitUntilExit() }
    }

    // MARK: Registration

    @Test(
        .plistFilesOnly(
            "`UserDefaults` answers a read with a registered default, so a store over it takes one for a stored value (on Apple platforms too)"
        ))
    func registeredDefaultsReachPlainReaders() throws {
        let suite = try TestSuite()
        #expect(suite.defaults.object(forKey: "keys.registered") == nil)
        try suite.store.register(.registered, .registeredCount)
        #expect(suite.defaults.string(forKey: "keys.registered") == "registered default")
        #expect(suite.defaults.object(forKey: "keys.registeredCount") as? Int == 3)
        #expect(suite.store[.registered] == "registered default")
        #expect(try suite.flushedObject(forKey: "keys.registered") as? String == "registered default")
        #expect(!UserDefault(.registered, store: suite.store).hasStoredValue, "registering writes nothing")
        #expect(try suite.fileBytes() == nil)
    }

    /// corelibs keeps one registration domain for the process, as the StoresAndDurability article
    /// warns.
    @Test(
        .enabled(if: isLinux),
        .plistFilesOnly(
            "`UserDefaults` answers a read with a registered default, so a store over it takes one for a stored value (on Apple platforms too)"
        ))
    func onLinuxEverySuiteSeesARegistration() throws {
        let suite = try TestSuite()
        let other = try TestSuite()
        try suite.store.register(.notRegisteredElsewhere)
        #expect(other.defaults.string(forKey: "keys.notRegisteredElsewhere") == "registered once")
        #expect(UserDefault(.notRegisteredElsewhere, store: other.store).hasStoredValue == false)
    }

    /// Linux's registration domain is one for the whole process: a `nil` default registers
    /// nothing, where it once showed plain readers of every suite an internal marker.
    @Test func aNilDefaultRegistersNothing() throws {
        let suite = try TestSuite()
        let key = DefaultsKey<Int?>("keys.registeredNil")
        try suite.store.register(key)
        #expect(suite.defaults.object(forKey: "keys.registeredNil") == nil)
        #expect(UserDefaults.standard.object(forKey: "keys.registeredNil") == nil)
        #expect(suite.store[key] == nil)
    }

    @Test func registeringADynamicOrUnencodableDefaultThrowsAndRegistersNothing() throws {
        let suite = try TestSuite()
        let dynamic = #expect(throws: DefaultsError.self) {
            try suite.store.register(.notRegistered, .unregistrable)
        }
        guard case .encodingFailed(let key, _)? = dynamic else {
            Issue.record("expected encodingFailed, got \(String(describing: dynamic))")
            return
        }
        #expect(key == "keys.unregistrable")
        let unencodable = #expect(throws: DefaultsError.self) { try suite.store.register(.unencodable) }
        #expect(unencodable?.key == "keys.unencodable")
        #expect(suite.defaults.object(forKey: "keys.notRegistered") == nil, "all or nothing")
    }

    // `store[.key]` finds the key's slot through bindings the key keeps per store: these check
    // that they never mix stores up, and keep nothing of a store once it is released.

    @Test func oneKeyInManyStoresKeepsEachStoresValue() throws {
        let key = DefaultsKey<Int>("keys.manyStores", default: -1)
        let suites = try (0..<6).map { try TestSuite("manyStores\($0)") }
        let memories = (0..<6).map { _ in DefaultsStore.inMemory() }
        let stores = suites.map(\.store) + memories
        for (index, store) in stores.enumerated() { store[key] = index }
        for _ in 0..<3 {
            for (index, store) in stores.enumerated() {
                #expect(store[key] == index)
                #expect(UserDefault(key, store: store).wrappedValue == index)
            }
        }
        #expect(DefaultsStore.inMemory()[key] == -1)
    }

    @Test func aNewStoreNeverSeesAReleasedStoresValues() {
        let key = DefaultsKey<String?>("keys.releasedStores")
        for round in 0..<200 {
            let store = DefaultsStore.inMemory()
            // A store made right after one is released may get its address.
            #expect(store[key] == nil, "round \(round)")
            store[key] = "round \(round)"
            #expect(store[key] == "round \(round)")
        }
    }

    @Test func aKeyDoesNotKeepAReleasedStoresValuesAlive() {
        let key = DefaultsKey<Tracked>("keys.tracked", default: Tracked(name: "default"))
        weak var written: Tracked?
        do {
            let store = DefaultsStore.inMemory()
            let value = Tracked(name: "written")
            written = value
            store[key] = value
            #expect(store[key] === value, "cached as written")
        }
        #expect(written == nil, "the released store's value is still alive")
    }

    @Test func bindingsAreSharedSafelyAcrossThreads() async throws {
        let key = DefaultsKey<Int>("keys.threads", default: 0)
        let suites = try (0..<6).map { try TestSuite("threads\($0)") }
        let stores = suites.map(\.store) + (0..<4).map { _ in DefaultsStore.inMemory() }
        await withTaskGroup(of: Void.self) { group in
            for (index, store) in stores.enumerated() {
                group.addTask {
                    for round in 0..<2_000 {
                        store[key] = index * 10_000 + round
                        #expect(store[key] == index * 10_000 + round)
                    }
                }
            }
        }
    }
}

/// A class value, to tell whether anything still holds it.
final class Tracked: NSObject, NSSecureCoding, DefaultsValueConvertible, Sendable {
    static var supportsSecureCoding: Bool { true }
    let name: String

    init(name: String) {
        self.name = name
    }

    func encode(with coder: NSCoder) {
        coder.encode(name as NSString, forKey: "name")
    }

    init?(coder: NSCoder) {
        guard let name = coder.decodeObject(of: NSString.self, forKey: "name") else { return nil }
        self.name = name as String
    }
}

extension DefaultsStore {
    fileprivate static let keysOwn = DefaultsStore(suite: "typeddefaults-tests.keys-own-store")
}

extension DefaultsKeys {
    fileprivate static let accent = DefaultsKey<String>("accent", default: "blue", store: .keysOwn)
    fileprivate static let standardAccent = DefaultsKey<String>("accent", default: "blue")
}

/// `DefaultsStore[.key]`, Defaults' `Defaults[.key]`: a key in the store it names. On copies of
/// the stores, so that `.standard` is never written.
@Suite(.isolatedDefaults) struct KeyInItsOwnStoreTests {
    @Test func aKeyThatNamesAStoreIsReadAndWrittenThere() {
        DefaultsStore[.accent] = "green"
        #expect(DefaultsStore.keysOwn[.accent] == "green")
        #expect(UserDefault(.accent).wrappedValue == "green")
        #expect(DefaultsStore.standard[.standardAccent] == "blue", "written to .standard, not the key's store")
        DefaultsStore[.accent] += "!"
        #expect(DefaultsStore[.accent] == "green!")
    }

    @Test func aKeyThatNamesNoStoreIsInTheStandardOne() {
        DefaultsStore[.standardAccent] = "red"
        #expect(DefaultsStore.standard[.standardAccent] == "red")
        #expect(DefaultsStore.keysOwn[.accent] == "blue")
    }
}

@Suite struct KeyNameTests {
    @Test func keysOfDifferentTypesListTheirNames() {
        let keys: [DefaultsKeys] = [
            DefaultsKey<Int>("launchCount", default: 0), DefaultsKey<String?>("nickname"),
            DefaultsKey<NFLTeam>("team", default: .bills),
        ]
        #expect(keys.map(\.name) == ["launchCount", "nickname", "team"])
        #expect(Set(keys).count == 3)
    }
}
