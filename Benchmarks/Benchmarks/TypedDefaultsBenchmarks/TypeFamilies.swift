import Benchmark
import Foundation
import TypedDefaults

/// One type family, read and written where programs declare their settings, next to the same
/// read and write done with plain `UserDefaults`: the raw call plus the decode or encode a
/// program needs to get the typed value (a JSON decode for a `Codable` value, a keyed
/// unarchive for a secure-coding object).
struct TypeFamily<Value: DefaultsValueConvertible & Sendable>: Sendable {
    let name: String
    let defaultValue: Value
    let value: Value
    let rawWrite: @Sendable (UserDefaults, String, Value) -> Void
    let rawRead: @Sendable (UserDefaults, String) -> Value?

    /// Settings declared as programs declare them: `@UserDefault` and `@Setting` properties of a
    /// class, one declared with a typed key.
    // @unchecked Sendable is sound: the wrappers are assigned once, in `init`, and their
    // setters are nonmutating; the store they write to is thread-safe.
    final class Settings: @unchecked Sendable {
        @UserDefault var value: Value
        @UserDefault var keyed: Value
        @Setting var setting: Value

        init(_ family: TypeFamily, key: DefaultsKey<Value>, store: DefaultsStore) {
            _value = UserDefault(wrappedValue: family.defaultValue, "key", store: store)
            _keyed = UserDefault(key, store: store)
            _setting = Setting(wrappedValue: family.defaultValue, "key", title: "Setting", store: store)
        }
    }

    /// The same property as a struct's.
    struct SettingsValue: Sendable {
        @UserDefault var value: Value
    }

    /// The settings on a suite of their own, and plain `UserDefaults` on another, so the raw
    /// baseline and the engine never share a file. Every handle uses the one key "key".
    struct Fixture: BenchmarkFixture {
        let suite: BenchmarkSuite
        let rawSuite: BenchmarkSuite
        let key: DefaultsKey<Value>
        let settings: Settings
        let settingsValue: SettingsValue
        let wrapper: UserDefault<Value>
        var store: DefaultsStore { suite.store }
        var raw: UserDefaults { rawSuite.defaults.defaults }

        func remove() throws {
            try suite.remove()
            try rawSuite.remove()
        }
    }

    func fixture() throws -> Fixture {
        let suite = try BenchmarkSuite(name)
        let key = DefaultsKey<Value>("key", default: defaultValue)
        return Fixture(
            suite: suite, rawSuite: try BenchmarkSuite("raw.\(name)"), key: key,
            settings: Settings(self, key: key, store: suite.store),
            settingsValue: SettingsValue(value: UserDefault(wrappedValue: defaultValue, "key", store: suite.store)),
            wrapper: UserDefault(wrappedValue: defaultValue, "key", store: suite.store))
    }

    /// Where a read or write happens, as its benchmark names it.
    enum Position: String, CaseIterable {
        case classProperty = "class property"
        case structProperty = "struct property"
        case subscriptKey = "store[.key]"
        case typedKeyProperty = "@UserDefault(.key)"
        case setting = "Setting"
        case wrapperHeld = "wrapper held (floor)"
    }

    /// Registers "NAME read: POSITION" for every position, "NAME write: class property" and
    /// "NAME write: store[.key]", and the baselines "NAME raw read" and "NAME raw write".
    func register() {
        for position in Position.allCases { registerRead(position) }
        registerWrite("class property") { $0.settings.value = $1 }
        registerWrite("store[.key]") { $0.store[$0.key] = $1 }
        let family = self
        registerBenchmark("\(name) raw read", configuration: .thousandPerSample) {
            let fixture = try family.fixture()
            family.rawWrite(fixture.raw, "key", family.value)
            return fixture
        } body: { benchmark, fixture in
            for _ in benchmark.scaledIterations { blackHole(family.rawRead(fixture.raw, "key")) }
        }
        let writes = Benchmark.Configuration.thousandWritesPerSample
        registerBenchmark("\(name) raw write", configuration: writes, setup: family.fixture) { benchmark, fixture in
            for _ in benchmark.scaledIterations { family.rawWrite(fixture.raw, "key", family.value) }
        }
    }

    /// A cached read, as a running program makes it: the value was written and read before.
    private func registerRead(_ position: Position) {
        let family = self
        registerBenchmark("\(name) read: \(position.rawValue)", configuration: .thousandPerSample) {
            let fixture = try family.fixture()
            fixture.settings.value = family.value
            _ = (fixture.settings.value, fixture.settings.keyed, fixture.settings.setting)
            _ = (fixture.settingsValue.value, fixture.store[fixture.key], fixture.wrapper.wrappedValue)
            return fixture
        } body: { benchmark, fixture in
            switch position {
            case .classProperty:
                for _ in benchmark.scaledIterations { blackHole(fixture.settings.value) }
            case .structProperty:
                for _ in benchmark.scaledIterations { blackHole(fixture.settingsValue.value) }
            case .subscriptKey:
                for _ in benchmark.scaledIterations { blackHole(fixture.store[fixture.key]) }
            case .typedKeyProperty:
                for _ in benchmark.scaledIterations { blackHole(fixture.settings.keyed) }
            case .setting:
                for _ in benchmark.scaledIterations { blackHole(fixture.settings.setting) }
            case .wrapperHeld:
                for _ in benchmark.scaledIterations { blackHole(fixture.wrapper.wrappedValue) }
            }
        }
    }

    private func registerWrite(_ position: String, _ write: @escaping @Sendable (Fixture, Value) -> Void) {
        let family = self
        let (name, writes) = ("\(name) write: \(position)", Benchmark.Configuration.thousandWritesPerSample)
        registerBenchmark(name, configuration: writes, setup: family.fixture) { benchmark, fixture in
            for _ in benchmark.scaledIterations { write(fixture, family.value) }
        }
    }
}
