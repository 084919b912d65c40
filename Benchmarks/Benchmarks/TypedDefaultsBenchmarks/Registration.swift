import Benchmark
import Foundation

/// What a benchmark's setup makes and its teardown cleans up.
protocol BenchmarkFixture: Sendable {
    /// Removes the suites the fixture made.
    func remove() throws
}

/// Whether this run only checks that every benchmark still runs, as CI does
/// (`TYPEDDEFAULTS_BENCHMARK_SMOKE=1`): each takes a few samples, not a second of them, and its
/// timings mean nothing.
let isSmokeRun = ProcessInfo.processInfo.environment["TYPEDDEFAULTS_BENCHMARK_SMOKE"] == "1"

/// Registers a benchmark that runs `body` on the fixture `setup` made, and removes the fixture
/// after the last run.
func registerBenchmark<Fixture: BenchmarkFixture>(
    _ name: String, configuration: Benchmark.Configuration,
    setup: @escaping @Sendable () throws -> Fixture, body: @escaping @Sendable (Benchmark, Fixture) -> Void
) {
    let made = Made<Fixture>()
    var configuration = configuration
    if isSmokeRun {
        configuration.warmupIterations = 0
        configuration.maxDuration = .milliseconds(20)
        configuration.maxIterations = min(configuration.maxIterations, 3)
    }
    Benchmark(name, configuration: configuration, closure: body) {
        let fixture = try setup()
        made.keep(fixture)
        return fixture
    } teardown: {
        try made.take()?.remove()
    }
}

/// The fixture between setup and teardown.
// @unchecked Sendable is sound: `fixture` is only touched under `lock`.
private final class Made<Fixture: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var fixture: Fixture?

    func keep(_ fixture: Fixture) { lock.withLock { self.fixture = fixture } }
    func take() -> Fixture? {
        lock.withLock {
            defer { fixture = nil }; return fixture
        }
    }
}

extension Benchmark.Configuration {
    /// A thousand operations a sample, so the clock's own cost (tens of nanoseconds) does not
    /// swamp operations that take a few nanoseconds; results are per operation. For reads and
    /// inits: `benchmark-ratios` knows them by their names.
    static var thousandPerSample: Self {
        .init(
            metrics: [.wallClock, .throughput, .mallocCountTotal], scalingFactor: .kilo,
            maxDuration: .seconds(1), maxIterations: 1_000)
    }

    /// A thousand writes a sample, as ``thousandPerSample``, with time for a thousand writes of a
    /// value that takes a millisecond to encode.
    static var thousandWritesPerSample: Self {
        .init(
            metrics: [.wallClock, .throughput, .mallocCountTotal], scalingFactor: .kilo,
            maxDuration: .seconds(3), maxIterations: 1_000)
    }

    /// One operation a sample, timed on its own: for operations of a microsecond or more, where
    /// a thousand could take longer than a second (and the exporter then loses the throughput).
    static var single: Self {
        .init(metrics: [.wallClock, .throughput, .mallocCountTotal], maxDuration: .seconds(1), maxIterations: 10_000)
    }
}
