import Benchmark
import Dispatch
import Foundation
import TypedDefaults

extension DefaultsKeys {
    static let benchmarkCounter = DefaultsKey<Int>("counter", default: 0)
}

/// The engine's costs beyond a plain read or write: reading after another handle's write,
/// delivering a change to an observer, flushing suites of several sizes, making a property,
/// and memory over a million writes.
enum EngineBenchmarks {
    /// Two handles on one key of one suite, and plain `UserDefaults` twice over another suite.
    struct TwoHandles<Value: DefaultsValueConvertible & Sendable>: BenchmarkFixture {
        let suite: BenchmarkSuite
        let rawSuite: BenchmarkSuite
        let writer: UserDefault<Value>
        let reader: UserDefault<Value>
        let rawReader: SharedDefaults

        init(_ name: String, defaultValue: Value) throws {
            suite = try BenchmarkSuite(name)
            rawSuite = try BenchmarkSuite("raw.\(name)")
            writer = UserDefault(wrappedValue: defaultValue, "key", store: suite.store)
            reader = UserDefault(wrappedValue: defaultValue, "key", store: suite.store)
            // A second object for the same suite, as another part of a program would make.
            rawReader = SharedDefaults(try UserDefaults.suite(named: rawSuite.name))
        }

        func remove() throws {
            try suite.remove()
            try rawSuite.remove()
        }
    }

    /// A suite holding `count` keys, and a `Data` value of `bytes` beside them when given,
    /// written and flushed, with nothing flushed behind a benchmark's back.
    struct SizedSuite: BenchmarkFixture {
        let suite: BenchmarkSuite
        let store: DefaultsStore
        let rawSuite: BenchmarkSuite

        init(keys count: Int, archiveBytes: Int = 0) throws {
            suite = try BenchmarkSuite("flush\(count).\(archiveBytes)")
            store = suite.store.durability(.coalesced(within: .seconds(3600)))
            rawSuite = try BenchmarkSuite("raw.flush\(count).\(archiveBytes)")
            for index in 0..<count {
                UserDefault(wrappedValue: 0, "key.\(index)", store: store).wrappedValue = index
                rawSuite.defaults.defaults.set(index, forKey: "key.\(index)")
            }
            if archiveBytes > 0 {
                UserDefault(wrappedValue: Data(), "archive", store: store).wrappedValue = Data(count: archiveBytes)
            }
            try store.flush()
            rawSuite.defaults.defaults.synchronize()
        }

        func remove() throws {
            try suite.remove()
            try rawSuite.remove()
        }
    }

    /// A property with an observer that signals each delivery.
    struct Observed: BenchmarkFixture {
        let suite: BenchmarkSuite
        let property: UserDefault<Int>
        let delivered: DispatchSemaphore
        let observation: DefaultsObservation

        init() throws {
            suite = try BenchmarkSuite("observer")
            property = UserDefault(wrappedValue: 0, "key", store: suite.store)
            let delivered = DispatchSemaphore(value: 0)
            observation = property.observe { _ in delivered.signal() }
            self.delivered = delivered
        }

        func remove() throws {
            observation.cancel()
            try suite.remove()
        }
    }

    static func register() {
        registerFirstReads()
        registerObserverDelivery()
        registerFlushes()
        registerLargeSuiteFlushes()
        registerInits()
        registerMillionWrites()
    }

    /// One handle writes, the other reads: the read is timed on its own.
    private static func registerFirstReads() {
        let layouts = [
            WindowLayout(width: 800, height: 600, sidebarVisible: true, title: "A"),
            WindowLayout(width: 1024, height: 768, sidebarVisible: false, title: "B"),
        ]
        registerBenchmark("First read after another handle's write: Int", configuration: .single) {
            try TwoHandles("firstRead.Int", defaultValue: 0)
        } body: { benchmark, fixture in
            fixture.writer.wrappedValue = fixture.reader.wrappedValue + 1
            benchmark.startMeasurement()
            blackHole(fixture.reader.wrappedValue)
            benchmark.stopMeasurement()
        }
        registerBenchmark("First read after another handle's write: Int raw", configuration: .single) {
            try TwoHandles("firstRead.Int", defaultValue: 0)
        } body: { benchmark, fixture in
            let next = (fixture.rawReader.defaults.object(forKey: "key") as? Int ?? 0) + 1
            fixture.rawSuite.defaults.defaults.set(next, forKey: "key")
            benchmark.startMeasurement()
            blackHole(fixture.rawReader.defaults.object(forKey: "key") as? Int)
            benchmark.stopMeasurement()
        }
        registerBenchmark("First read after another handle's write: Codable", configuration: .single) {
            try TwoHandles("firstRead.Codable", defaultValue: layouts[0])
        } body: { benchmark, fixture in
            fixture.writer.wrappedValue = fixture.reader.wrappedValue == layouts[0] ? layouts[1] : layouts[0]
            benchmark.startMeasurement()
            blackHole(fixture.reader.wrappedValue)
            benchmark.stopMeasurement()
        }
        registerBenchmark("First read after another handle's write: Codable raw", configuration: .single) {
            try TwoHandles("firstRead.Codable", defaultValue: layouts[0])
        } body: { benchmark, fixture in
            let current: WindowLayout? = Raw.json(fixture.rawReader.defaults, "key")
            Raw.setJSON(fixture.rawSuite.defaults.defaults, "key", current == layouts[0] ? layouts[1] : layouts[0])
            benchmark.startMeasurement()
            blackHole(Raw.json(fixture.rawReader.defaults, "key") as WindowLayout?)
            benchmark.stopMeasurement()
        }
    }

    /// From the write until the observer's callback has run, on the suite's queue.
    private static func registerObserverDelivery() {
        registerBenchmark("Observer delivery in-process", configuration: .single, setup: Observed.init) { _, fixture in
            fixture.property.wrappedValue += 1
            fixture.delivered.wait()
        }
    }

    /// One changed key made durable in a suite of 10, 1,000 and 10,000 keys: `flush()` of a
    /// coalesced store, and a `.immediate` store's setter (each synced to the device, file and
    /// folder), against `synchronize()` (which syncs the file it rewrites in place). A smoke run
    /// leaves out 10,000 keys: making those suites took 40 s of its 100.
    private static func registerFlushes() {
        for count in isSmokeRun ? [10, 1_000] : [10, 1_000, 10_000] {
            registerBenchmark("Immediate write with \(count) keys", configuration: .single) {
                try SizedSuite(keys: count)
            } body: { benchmark, fixture in
                let immediate = fixture.store.durability(.immediate)
                let property = UserDefault(wrappedValue: 0, "key.0", store: immediate)
                let next = property.wrappedValue + 1
                benchmark.startMeasurement()
                property.wrappedValue = next
                benchmark.stopMeasurement()
            }
            registerBenchmark("Immediate write with \(count) keys raw", configuration: .single) {
                try SizedSuite(keys: count)
            } body: { benchmark, fixture in
                let defaults = fixture.rawSuite.defaults.defaults
                let next = defaults.integer(forKey: "key.0") + 1
                benchmark.startMeasurement()
                defaults.set(next, forKey: "key.0")
                defaults.synchronize()
                benchmark.stopMeasurement()
            }
            registerFlush("Flush with \(count) keys") { try SizedSuite(keys: count) }
            registerBenchmark("Flush with \(count) keys raw", configuration: .single) {
                try SizedSuite(keys: count)
            } body: { benchmark, fixture in
                let defaults = fixture.rawSuite.defaults.defaults
                defaults.set(defaults.integer(forKey: "key.0") + 1, forKey: "key.0")
                benchmark.startMeasurement()
                defaults.synchronize()
                benchmark.stopMeasurement()
            }
        }
    }

    /// One changed key flushed beside a value of 1 MiB and of just under 4 MiB, the most a store
    /// takes by default: the cost that makes large data belong in a file of its own.
    private static func registerLargeSuiteFlushes() {
        for (label, bytes) in [("1 MiB", 1 << 20), ("4 MiB", (4 << 20) - 1024)] {
            registerFlush("Flush of a \(label) suite") { try SizedSuite(keys: 1, archiveBytes: bytes) }
        }
    }

    /// `flush()` of one changed key in the suite `make` makes.
    private static func registerFlush(_ name: String, _ make: @escaping @Sendable () throws -> SizedSuite) {
        registerBenchmark(name, configuration: .single) {
            try make()
        } body: { benchmark, fixture in
            UserDefault(wrappedValue: 0, "key.0", store: fixture.store).wrappedValue += 1
            benchmark.startMeasurement()
            try? fixture.store.flush()
            benchmark.stopMeasurement()
        }
    }

    private static func registerInits() {
        registerBenchmark("UserDefault init by name", configuration: .thousandPerSample) {
            try BenchmarkSuite("init.name")
        } body: { benchmark, suite in
            for _ in benchmark.scaledIterations { blackHole(UserDefault(wrappedValue: 0, "key", store: suite.store)) }
        }
        registerBenchmark("UserDefault init from a typed key", configuration: .thousandPerSample) {
            try BenchmarkSuite("init.key")
        } body: { benchmark, suite in
            for _ in benchmark.scaledIterations { blackHole(UserDefault(.benchmarkCounter, store: suite.store)) }
        }
    }

    /// A million writes, then a flush: memory must stay flat, not grow with the writes.
    private static func registerMillionWrites() {
        let configuration = Benchmark.Configuration(
            metrics: [.wallClock, .throughput, .mallocCountTotal, .mallocFreeDelta, .peakMemoryResidentDelta],
            warmupIterations: 1, maxDuration: .seconds(60), maxIterations: 3)
        registerBenchmark("1,000,000 writes", configuration: configuration) {
            try BenchmarkSuite("million")
        } body: { _, suite in
            let number = UserDefault(wrappedValue: 0, "number", store: suite.store)
            let text = UserDefault(wrappedValue: "", "text", store: suite.store)
            for round in 0..<1_000_000 {
                if round.isMultiple(of: 2) { number.wrappedValue = round } else { text.wrappedValue = "round \(round)" }
            }
            try? suite.store.flush()
        }
    }
}

extension BenchmarkSuite: BenchmarkFixture {}
