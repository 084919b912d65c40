import Benchmark

// Each benchmark makes suites of its own in setup and removes them in teardown.
let benchmarks: @Sendable () -> Void = {
    Families.register()
    EngineBenchmarks.register()
}
