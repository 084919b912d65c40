import Foundation
import Testing
import TypedDefaults
import TypedDefaultsSchema

/// Changes crossing processes: a running program sees the tool's writes, and `watch` prints
/// other processes' writes.
@Suite struct WatchTests {
    final class Seen: @unchecked Sendable {  // `values` is only touched under `lock`.
        private let lock = NSLock()
        private var values: [Int] = []

        func append(_ value: Int) { lock.withLock { values.append(value) } }
        var all: [Int] { lock.withLock { values } }
    }

    @Test func aRunningProgramObservingTheSuiteSeesWrite() async throws {
        let (suite, store) = try Tool.suite()
        @UserDefault("fontSize", store: store) var fontSize = 12
        _ = fontSize
        let seen = Seen()
        let observation = $fontSize.observe { change in seen.append(change.newValue) }
        defer { observation.cancel() }
        #expect(try await Tool.run("write", suite, "fontSize", "--int", "20").status == 0)
        #expect(await Self.eventually { seen.all == [20] })
        #expect(fontSize == 20)
        #expect(try await Tool.run("delete", suite, "fontSize").status == 0)
        #expect(await Self.eventually { seen.all == [20, 12] })
    }

    @Test func watchPrintsAnotherProcesssWrites() async throws {
        let (suite, _) = try Tool.suite()
        #expect(try await Tool.run("write", suite, "existing", "1").status == 0)
        let watcher = try Tool.Running(["watch", suite])
        defer { watcher.stop() }
        #expect(await watcher.wait { $0.errorText.contains("Watching \(suite)") })
        #expect(try await Tool.run("write", suite, "theme", "dark").status == 0)
        #expect(await watcher.wait { $0.lines.contains("theme: dark") }, "\(watcher.lines) \(watcher.errorText)")
        #expect(try await Tool.run("write", suite, "sizes", "--array", "--int", "1", "2").status == 0)
        #expect(await watcher.wait { $0.lines.contains("sizes: [1,2]") }, "\(watcher.lines)")
        #expect(try await Tool.run("delete", suite, "existing").status == 0)
        #expect(await watcher.wait { $0.lines.contains("existing: (removed)") }, "\(watcher.lines)")
    }

    @Test func watchOfNamedKeysPrintsOnlyThoseWithSchemaDefaults() async throws {
        let (suite, store) = try Tool.suite()
        try DefaultsSchema.publish(ToolTestSettings(store: store))
        let watcher = try Tool.Running(["watch", suite, "fontSize"])
        defer { watcher.stop() }
        #expect(await watcher.wait { $0.errorText.contains("Watching") })
        #expect(try await Tool.run("write", suite, "volume", "0.2").status == 0)
        #expect(try await Tool.run("write", suite, "fontSize", "30").status == 0)
        #expect(await watcher.wait { $0.lines.contains("fontSize: 30") }, "\(watcher.lines)")
        #expect(try await Tool.run("reset", suite, "fontSize").status == 0)
        #expect(await watcher.wait { $0.lines.contains("fontSize: 12 (default)") }, "\(watcher.lines)")
        #expect(watcher.lines == ["fontSize: 30", "fontSize: 12 (default)"])
    }

    static func eventually(_ condition: () -> Bool) async -> Bool {
        let deadline = Date().addingTimeInterval(10)
        while !condition() {
            if Date() > deadline { return false }
            try? await Task.sleep(for: .milliseconds(5))
        }
        return true
    }
}
