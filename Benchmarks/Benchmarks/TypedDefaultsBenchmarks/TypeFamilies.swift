import Benchmark
import Foundation
import TypedDefaults

/// One type family measured four ways: a read and a write through `@UserDefault`, and the same
/// read and write done with plain `UserDefaults`: the raw call plus the decode or encode a
/// program needs to get the typed value (a JSON decode for a `Codable` value, a keyed
/// unarchive for a secure-coding object).
struct TypeFamily<Value: DefaultsValueConvertible & Sendable>: Sendable {
    let name: String
    let defaultValue: Value
    let value: Value
    let rawWrite: @Sendable (UserDefaults, String, Value) -> Void
    let rawRead: @Sendable (UserDefaults, String) -> Value?

    /// A property on a suite of its own, and plain `UserDefaults` on another, so the raw
    /// baseline and the engine never share a file.
    struct Fixture: BenchmarkFixture {
        let suite: BenchmarkSuite
        let rawSuite: BenchmarkSuite
        let property: UserDefault<Value>
        var raw: UserDefaults { rawSuite.defaults.defaults }

        func remove() throws {
            try suite.remove()
            try rawSuite.remove()
        }
    }

    func fixture() throws -> Fixture {
        let suite = try BenchmarkSuite(name)
        return Fixture(
            suite: suite, rawSuite: try BenchmarkSuite("raw.\(name)"),
            property: UserDefault(wrappedValue: defaultValue, "key", store: suite.store))
    }

    /// Registers "NAME read", "NAME raw read", "NAME write" and "NAME raw write".
    func register() {
        let family = self
        registerBenchmark("\(name) read", configuration: .thousandPerSample) {
            let fixture = try family.fixture()
            fixture.property.wrappedValue = family.value
            _ = fixture.property.wrappedValue  // cached from here on, as in a running program
            return fixture
        } body: { benchmark, fixture in
            for _ in benchmark.scaledIterations { blackHole(fixture.property.wrappedValue) }
        }
        registerBenchmark("\(name) raw read", configuration: .thousandPerSample) {
            let fixture = try family.fixture()
            family.rawWrite(fixture.raw, "key", family.value)
            return fixture
        } body: { benchmark, fixture in
            for _ in benchmark.scaledIterations { blackHole(family.rawRead(fixture.raw, "key")) }
        }
        registerBenchmark("\(name) write", configuration: .single, setup: family.fixture) { _, fixture in
            fixture.property.wrappedValue = family.value
        }
        registerBenchmark("\(name) raw write", configuration: .single, setup: family.fixture) { _, fixture in
            family.rawWrite(fixture.raw, "key", family.value)
        }
    }
}
