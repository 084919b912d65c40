import Foundation
import Testing

/// Measured in a child process of its own: the test process's resident set also holds the
/// allocations of the tests running beside this one.
@Suite struct MemoryTests {
    @Test(
        .tags(.childProcess), .startsProcesses,
        .enabled(if: FileManager.default.fileExists(atPath: "/proc/self/statm")),
        .plistFilesOnly("corelibs `UserDefaults` rewrites the whole file on each commit: a million take hours")
    )
    func aMillionWritesLeaveTheResidentSetFlat() async throws {
        let suite = try TestSuite()
        let run = try await Probe.run("churn", suite.name, "1000000")
        #expect(run.status == 0, "\(run.errors)")
        let figures = run.output.split(whereSeparator: \.isWhitespace).dropFirst().compactMap { Int($0) }
        try #require(figures.count == 3, "\(run.output)")
        let (warm, afterOneMillion, afterTwoMillion) = (figures[0], figures[1], figures[2])
        #expect(warm > 0)
        #expect(
            afterOneMillion - warm < 2 << 20,
            "the first million writes grew the resident set from \(warm) to \(afterOneMillion)")
        #expect(
            afterTwoMillion - afterOneMillion < 2 << 20,
            "the second million grew it from \(afterOneMillion) to \(afterTwoMillion)")
    }
}
