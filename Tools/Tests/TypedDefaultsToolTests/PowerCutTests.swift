import Foundation
import Testing
import TypedDefaults

/// What the library and the tool call durable survives a power cut. A suite of 100
/// keys lives on a throwaway ext4 or XFS file system on a loop device; a process writes `key.7`,
/// and the moment the write is reported done (the setter or `flush()` returned, the tool
/// exited 0) the device's backing image is copied. The copy is what the disk held at that
/// instant: checked as a boot would, mounted, and its suite file read.
///
/// Before the fix every durable write read the old value (the new file was renamed into place
/// with its bytes still in memory). Where loop devices are not available the test is skipped;
/// under `CI=true` it must run.
@Suite(.serialized) struct PowerCutTests {
    static let mustRun = ProcessInfo.processInfo.environment["CI"] == "true"
    static let isChild = ProcessInfo.processInfo.environment["POWERCUT_MODE"] != nil
    static let suite = "power-cut.suite"
    static let keys = 100

    /// How the write is made, and what it promises.
    enum Write: String, CaseIterable {
        /// A `.immediate` store's setter returned.
        case setter
        /// `flush()` on a coalesced store returned.
        case flush
        /// `update` on a `.immediate` store returned.
        case update
        /// The process exited normally with the write pending: the exit flush.
        case exitFlush
        /// `typed-defaults write`, `delete` and `import` exited 0.
        case toolWrite, toolDelete, toolImport
        /// A coalesced write, imaged after its window: the old value or the new, in a file that parses.
        case coalesced

        var isDurable: Bool { self != .coalesced }
    }

    @Test(
        .enabled(if: !isChild && (LoopDisk.whyUnavailable == nil || mustRun), "needs root and loop devices"),
        arguments: ["ext4", "xfs"])
    func durableWritesSurviveAPowerCut(fileSystem: String) async throws {
        if let reason = LoopDisk.whyUnavailable {
            Issue.record("CI=true: the power-cut test must run, but \(reason)")
            return
        }
        let disk = try await LoopDisk(fileSystem: fileSystem)
        let folder = disk.mountPoint.appendingPathComponent("config")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        do {
            try await populate(folder)
            var current = "initial"
            for trial in 1...2 {
                for write in Write.allCases {
                    let value = "\(write.rawValue)-\(trial)"
                    let stored = try await cut(after: write, value: value, folder: folder, disk: disk)
                    try check(stored, after: write, value: value, before: current, fileSystem: fileSystem)
                    if write != .toolDelete { current = value }
                }
            }
        } catch {
            await disk.remove()
            throw error
        }
        await disk.remove()
    }

    /// The suite's 100 keys, on the device before the trials.
    private func populate(_ folder: URL) async throws {
        let file = folder.appendingPathComponent("initial.json")
        let members = (0..<Self.keys).map { "\"key.\($0)\": \"initial\"" }.joined(separator: ", ")
        try Data("{\(members)}".utf8).write(to: file)
        let result = try await Tool.run(["import", Self.suite, file.path], folder: folder)
        #expect(result.status == 0, "\(result.errors)")
        try await LoopDisk.run("sync")
    }

    /// Makes `write` of `value`, copies the device the moment it is reported done, and returns
    /// the suite's values on the copy (`nil`: there was no suite file on it).
    private func cut(after write: Write, value: String, folder: URL, disk: LoopDisk) async throws -> [String: Any]? {
        let read = { (copy: URL) throws -> [String: Any]? in
            let file = copy.appendingPathComponent("config/\(Self.suite).plist")
            guard let data = FileManager.default.contents(atPath: file.path) else { return nil }
            let root = try PropertyListSerialization.propertyList(from: data, format: nil)
            return try #require(root as? [String: Any], "the suite file is no dictionary")
        }
        switch write {
        case .toolWrite, .toolDelete, .toolImport:
            let arguments: [String]
            switch write {
            case .toolWrite:
                arguments = ["write", Self.suite, "key.7", value]
            case .toolDelete:
                // A key written (durably) to be deleted.
                let written = try await Tool.run(["write", Self.suite, "doomed", value], folder: folder)
                #expect(written.status == 0, "\(written.errors)")
                arguments = ["delete", Self.suite, "doomed"]
            default:
                let file = folder.appendingPathComponent("import.json")
                try Data("{\"key.7\": \"\(value)\"}".utf8).write(to: file)
                arguments = ["import", "--merge", Self.suite, file.path]
            }
            let result = try await Tool.run(arguments, folder: folder)
            #expect(result.status == 0, "\(arguments): \(result.errors)")
            return try await disk.whatTheDeviceHolds(read)
        case .setter, .flush, .update, .exitFlush, .coalesced:
            let child = try Writer(write, value: value, folder: folder)
            if write == .exitFlush {
                await child.ended()
            } else {
                #expect(await child.saidDone(), "the writer did not finish: \(child.text)")
            }
            let stored = try await disk.whatTheDeviceHolds(read)
            await child.release()
            #expect(child.status == 0, "\(child.text)")
            return stored
        }
    }

    private func check(_ stored: [String: Any]?, after write: Write, value: String, before: String, fileSystem: String)
        throws
    {
        let label = "\(fileSystem), \(write.rawValue): "
        let values = try #require(stored, "\(label)no suite file on the device")
        let others = (0..<Self.keys).filter { $0 != 7 && values["key.\($0)"] as? String != "initial" }
        #expect(others.isEmpty, "\(label)keys lost or changed: \(others.prefix(5))")
        let key7 = values["key.7"] as? String
        switch write {
        case .toolDelete:
            #expect(values["doomed"] == nil, "\(label)the deleted key is on the device")
            #expect(key7 == before)
        case .coalesced:
            #expect(key7 == value || key7 == before, "\(label)key.7 is \(String(describing: key7))")
        default:
            #expect(key7 == value, "\(label)the device holds key.7 = \(String(describing: key7)), not \(value)")
        }
    }

    // MARK: The writer, in a child process

    /// This test binary, run again to make one library write in a process of its own.
    final class Writer: Sendable {
        private let process = Process()
        private let output = Pipe()
        private let input = Pipe()
        private let reader: PipeReader

        init(_ write: Write, value: String, folder: URL) throws {
            process.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
            process.arguments = ["--testing-library", "swift-testing", "--filter", "powerCutWriter"]
            var environment = Tool.environment(folder: folder)
            environment["POWERCUT_MODE"] = write.rawValue
            environment["POWERCUT_VALUE"] = value
            process.environment = environment
            process.standardOutput = output
            process.standardError = output
            process.standardInput = input
            reader = PipeReader(output)
            try process.run()
        }

        var text: String { reader.text }
        var status: Int32 { process.isRunning ? -1 : process.terminationStatus }

        /// Waits up to a minute for the writer's "done".
        func saidDone() async -> Bool {
            let deadline = Date().addingTimeInterval(60)
            while !text.split(separator: "\n").contains("powercut: done") {
                if Date() > deadline || !process.isRunning { return false }
                try? await Task.sleep(for: .milliseconds(1))
            }
            return true
        }

        /// Lets the writer end (it waits for its input to close), and waits for it.
        func release() async {
            try? input.fileHandleForWriting.close()
            await ended()
        }

        func ended() async {
            let deadline = Date().addingTimeInterval(60)
            while process.isRunning, Date() < deadline { try? await Task.sleep(for: .milliseconds(1)) }
            if process.isRunning { process.terminate() }
        }
    }

    /// The child's side: makes the write `POWERCUT_MODE` names, says "powercut: done", and
    /// waits for its input to close before it ends without the exit flush (`_exit`), so that
    /// nothing written after "done" reaches the device before the copy.
    @Test(.enabled(if: isChild)) func powerCutWriter() throws {
        let environment = ProcessInfo.processInfo.environment
        let mode = try #require(environment["POWERCUT_MODE"].flatMap(Write.init(rawValue:)))
        let value = try #require(environment["POWERCUT_VALUE"])
        let store = try DefaultsStore(suiteName: Self.suite)
        switch mode {
        case .setter:
            UserDefault(wrappedValue: "", "key.7", store: store.durability(.immediate)).wrappedValue = value
        case .flush:
            let coalesced = store.durability(.coalesced(within: .seconds(3600)))
            UserDefault(wrappedValue: "", "key.7", store: coalesced).wrappedValue = value
            try coalesced.flush()
        case .update:
            UserDefault(wrappedValue: "", "key.7", store: store.durability(.immediate)).update { $0 = value }
        case .exitFlush:
            UserDefault(wrappedValue: "", "key.7", store: store.durability(.coalesced(within: .seconds(3600))))
                .wrappedValue = value
            exit(0)
        case .coalesced:
            let coalesced = store.durability(.coalesced(within: .milliseconds(50)))
            UserDefault(wrappedValue: "", "key.7", store: coalesced).wrappedValue = value
            sleep(1)
        case .toolWrite, .toolDelete, .toolImport:
            Issue.record("the tool writes these")
        }
        FileHandle.standardOutput.write(Data("powercut: done\n".utf8))
        _ = FileHandle.standardInput.readDataToEndOfFile()
        _exit(0)
    }
}
