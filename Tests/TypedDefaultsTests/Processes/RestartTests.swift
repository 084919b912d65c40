import Foundation
import Testing

@testable import DefaultsProbe

/// Every conformance written in one process and read back in a new one, with no call to
/// `synchronize()`: on Linux this is where lost writes, integers read as 0, URLs stored as bare
/// paths, Floats turned into Doubles and truncated dates show.
@Suite struct RestartTests {
    @Test(.tags(.childProcess), .startsProcesses, arguments: ProbeCase.all.map(\.name))
    func survivesRestart(_ caseName: String) async throws {
        try await writeThenVerify(caseName)
    }

    /// Plain `UserDefaults` gets these wrong on Linux and `@UserDefault` right.
    @Test(
        .plistFilesOnly("corelibs `UserDefaults` writes a string as NFC, and -0.0 as 0"), .tags(.childProcess),
        .startsProcesses, .enabled(if: isLinux), arguments: ProbeCase.linuxQuirks.map(\.name))
    func linuxQuirkIsHandled(_ caseName: String) async throws {
        try await writeThenVerify(caseName)
    }

    @Test(.tags(.childProcess), .startsProcesses) func probeListsEveryCase() async throws {
        let listed = try await Probe.run("list")
        let expected = (ProbeCase.all + ProbeCase.linuxQuirks).map(\.name)
        #expect(listed.output.split(separator: "\n").map(String.init) == expected)
    }

    private func writeThenVerify(_ caseName: String) async throws {
        let suite = try TestSuite("restart.\(caseName)")
        let written = try await Probe.run("write", suite.name, caseName)
        #expect(written.status == 0, "\(written.errors)")
        let verified = try await Probe.run("verify", suite.name, caseName)
        #expect(verified.status == 0, "\(verified.errors)")
    }
}
