import Foundation
import Testing

/// Thousands of seeded random values of every conversion family, written through
/// `@UserDefault` and typed keys by one child process that exits normally (the library flushes
/// at exit), then read back by a fresh one and compared with the values drawn again from the
/// same seed (Tests/DefaultsProbe/RoundTrip). The seed is random unless `SEED` is set, and
/// every failure names it:
///
///     SEED=1234 swift test --filter RoundTripTests
///     SEED=1234 ROUNDTRIP_FAMILY=codable swift test --filter RoundTripTests   # one family
@Suite struct RoundTripTests {
    static var seed: UInt64 {
        ProcessInfo.processInfo.environment["SEED"].flatMap { UInt64($0) } ?? UInt64.random(in: .min ... .max)
    }

    @Test(
        .plistFilesOnly(
            "`UserDefaults` keeps one of two keys that are equal as Swift strings, and corelibs writes -0.0 as 0"),
        .tags(.childProcess), .startsProcesses) func generatedValuesSurviveARestart() async throws
    {
        let seed = Self.seed
        let family = ProcessInfo.processInfo.environment["ROUNDTRIP_FAMILY"]
        print("RoundTripTests: seed \(seed); reproduce with SEED=\(seed) swift test --filter RoundTripTests")
        let (written, verified) = try await Self.writeThenVerify(seed: seed, family: family)
        print(written.output + verified.output, terminator: "")
        #expect(written.status == 0, "seed \(seed): writing found problems\n\(written.errors)")
        #expect(verified.status == 0, "seed \(seed): what was read back differs\n\(verified.errors)")
    }

    /// Runs the writer and then the reader, each a process of its own, in a configuration folder
    /// of their own.
    static func writeThenVerify(seed: UInt64, family: String?) async throws -> (Probe.Result, Probe.Result) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("roundtrip-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let environment = Probe.environment(["XDG_CONFIG_HOME": folder.path])
        let suite = "typeddefaults-tests.roundtrip.\(UUID().uuidString)"
        let rest = ["\(seed)"] + (family.map { [$0] } ?? [])
        let written = try await Probe.run(["roundtrip-write", suite] + rest, environment: environment)
        let verified = try await Probe.run(["roundtrip-verify", suite] + rest, environment: environment)
        return (written, verified)
    }
}
