import Foundation
import Testing

@testable import TypedDefaults
@testable import TypedDefaultsStorage

extension DefaultsKeys {
    fileprivate static let telemetry = DefaultsKey<Bool>("telemetry", default: true)
    fileprivate static let channel = DefaultsKey<String>("updateChannel", default: "beta")
    fileprivate static let upload = DefaultsKey<Int>("maxUploadMB", default: 100)
    fileprivate static let proxy = DefaultsKey<String>("net.proxy", default: "direct")
    fileprivate static let shade = DefaultsKey<String>("shade", default: "light")
}

/// An administrator's files read, enforced and watched by a suite kept in a plist file.
@Suite struct ManagedFilesTests {
    @Test func aDefaultALockABoundAndAPrefixLockHoldAndTheUsersFileStaysAsItIs() throws {
        let machine = try ManagedMachine()
        defer { machine.remove() }
        // The user's values, written before any administrator's file.
        let before = machine.store()
        before[.telemetry] = true
        before[.upload] = 80
        before[.proxy] = "socks://home"
        try before.flush()
        let userBytes = try Data(contentsOf: machine.userFile)

        try machine.write("plist", plist(["updateChannel": "stable", "telemetry": false]))
        try machine.write("locks", "# policy\r\ntelemetry\r\n\r\nnet.*\r\n")
        try machine.write("bounds", plist(["maxUploadMB": ["minimum": 1, "maximum": 50]]))
        let store = machine.store()
        let locks = machine.adminFile("locks").path
        #expect(store[.telemetry] == false && store.valueSource(of: .telemetry) == .locked(by: locks))
        #expect(store[.proxy] == "direct" && !store.isWritable(.proxy))
        #expect(store[.channel] == "stable")
        #expect(store.valueSource(of: .channel) == .administratorDefault(from: machine.adminFile("plist").path))
        #expect(store[.upload] == 50 && store.userValue(of: .upload) == 80)
        #expect(store.userValue(of: .telemetry) == true && store.userValue(of: .proxy) == "socks://home")

        let (_, errors) = ReportedErrors.during {
            store[.telemetry] = false
            store.reset(.proxy)
            store[.upload] = 51
            store.removeAll()
        }
        #expect(
            throws: DefaultsError.self,
            performing: { try store.editStoredValues { $0["net.port"] = .integer(8080) } })
        try store.flush()
        #expect(errors.count == 4, "\(errors)")
        #expect(try Data(contentsOf: machine.userFile) == userBytes, "every refused write left the file as it was")
        store[.upload] = 20
        store[.shade] = "dark"
        try store.flush()
        #expect(store[.upload] == 20 && store[.shade] == "dark")
    }

    @Test func aLockAddedAndRemovedWhileTheSuiteIsInUseIsHeard() throws {
        let machine = try ManagedMachine()
        defer { machine.remove() }
        let store = machine.store()
        store[.channel] = "nightly"
        let heard = Collected<DefaultsValueChange<String>>()
        let observation = store.observe(.channel) { heard.append($0) }
        defer { observation.cancel() }
        try machine.write("locks", "updateChannel\n")
        #expect(eventually { !store.isWritable(.channel) })
        #expect(store[.channel] == "beta")
        try FileManager.default.removeItem(at: machine.adminFile("locks"))
        #expect(eventually { store.isWritable(.channel) })
        #expect(store[.channel] == "nightly", "the user's value is back")
        #expect(heard.wait(for: 2).map(\.newValue) == ["beta", "nightly"])
    }

    @Test(arguments: ["truncated", "binary", "empty", "wrong type"])
    func aBadDefaultsFileIsReportedAndReadsGoOn(kind: String) throws {
        let machine = try ManagedMachine()
        defer { machine.remove() }
        let bytes: Data =
            switch kind {
            case "truncated": Data(try plist(["updateChannel": "stable"]).utf8.prefix(40))
            case "binary":
                try PropertyListSerialization.data(
                    fromPropertyList: ["updateChannel": "stable"], format: .binary, options: 0)
            case "empty": Data()
            default: Data(try plist(["updateChannel": 42]).utf8)
            }
        try bytes.write(to: machine.adminFile("plist"))
        let store = machine.store()
        let (value, errors) = ReportedErrors.during { store[.channel] }
        switch kind {
        case "binary":
            #expect(value == "stable" && errors.isEmpty)
        case "empty":
            #expect(value == "beta" && errors.isEmpty)
        case "wrong type":
            #expect(value == "beta", "a mismatch reads the code's default")
            #expect(errors.count == 1)
        default:
            #expect(value == "beta")
            #expect(errors.count == 1 && "\(errors)".contains(machine.adminFile("plist").path))
        }
        #expect(!FileManager.default.fileExists(atPath: machine.userFile.path), "no file made in the user's folder")
    }

    @Test(arguments: ["fifo", "folder", "loop"])
    func aLocksFileThatCannotBeReadLocksEveryKey(kind: String) throws {
        let machine = try ManagedMachine()
        defer { machine.remove() }
        let locks = machine.adminFile("locks")
        switch kind {
        case "fifo": #expect(mkfifo(locks.path, 0o644) == 0)
        case "folder": try FileManager.default.createDirectory(at: locks, withIntermediateDirectories: false)
        default:
            let other = machine.admin.appendingPathComponent("other")
            try FileManager.default.createSymbolicLink(atPath: locks.path, withDestinationPath: other.path)
            try FileManager.default.createSymbolicLink(atPath: other.path, withDestinationPath: locks.path)
        }
        let store = machine.store()
        let (_, errors) = ReportedErrors.during {
            store[.shade] = "dark"
            _ = store[.shade]
        }
        #expect(store[.shade] == "light" && !store.isWritable(.shade))
        #expect(errors.count == 2, "one report of the file, one refusal: \(errors)")
        #expect(errors.allSatisfy { "\($0)".contains(locks.path) })
        #expect(!FileManager.default.fileExists(atPath: machine.userFile.path))
    }

    /// An administrator's files only root may read (mode 0600), met by a user's program: run as
    /// `nobody` when the tests run as root, else with the files' mode 000. The unreadable locks
    /// lock every key; the unreadable defaults give none; the user's file is not touched.
    @Test(.tags(.childProcess), .startsProcesses, .enabled(if: isLinux))
    func filesOnlyRootMayReadLockEveryKeyAndNameTheFile() async throws {
        let machine = try ManagedMachine()
        defer { machine.remove() }
        chmod(machine.root.path, 0o755)
        chmod(machine.user.path, 0o777)
        try machine.write("locks", "unrelated\n")
        try machine.write("plist", "{ telemetry = NO; }")
        let asRoot = getuid() == 0
        for kind in ["locks", "plist"] { chmod(machine.adminFile(kind).path, asRoot ? 0o600 : 0o000) }
        let launcher = asRoot ? ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] : []
        let environment = Probe.environment([
            "XDG_CONFIG_DIRS": machine.admin.path, "XDG_CONFIG_HOME": machine.user.path, "HOME": machine.user.path,
        ])
        let run = try await Probe.run(
            ["managed-write", machine.suite, "false"], environment: environment, launcher: launcher, killAfter: 60)
        #expect(run.status == 0, "\(run.errors)")
        let locks = machine.adminFile("locks").path
        #expect(
            run.output.hasPrefix("telemetry=true reported="),
            "the code's default, as no administrator's value could be read")
        #expect(run.output.contains("\"telemetry\" is locked by your administrator in \(locks)"), "\(run.output)")
        #expect(run.output.contains(machine.adminFile("plist").path), "the unreadable defaults are reported too")
        #expect(!FileManager.default.fileExists(atPath: machine.userFile.path), "nothing written for the user")
    }

    @Test func theUsersOwnFolderAndRelativeOrEmptyEntriesAreNoAdministrator() throws {
        let machine = try ManagedMachine()
        defer { machine.remove() }
        let before = machine.store()
        before[.shade] = "dark"
        try before.flush()
        try Data("shade\n".utf8).write(to: machine.user.appendingPathComponent("\(machine.suite).locks"))
        let store = machine.store(dirs: ":relative/admin::\(machine.user.path):")
        #expect(store[.shade] == "dark" && store.isWritable(.shade))
        #expect(store.valueSource(of: .shade) == .user)
    }

    @Test func aSuiteWithNoAdministratorFilesIsUnchanged() throws {
        let machine = try ManagedMachine()
        defer { machine.remove() }
        let missing = machine.root.appendingPathComponent("no-such-admin")
        let store = machine.store(dirs: missing.path)
        #expect(store[.shade] == "light" && store.isWritable(.shade))
        try store.flush()
        #expect(!FileManager.default.fileExists(atPath: machine.userFile.path))
        #expect(store.state.managed == nil)
        #expect(!FileManager.default.fileExists(atPath: missing.path), "an administrator's folder is never made")
    }

    @Test(
        .plistFilesOnly("corelibs `UserDefaults` does not tell of another process's writes"), .tags(.childProcess),
        .startsProcesses)
    func aLockAddedAndRemovedIsSeenByAnotherProcess() throws {
        let machine = try ManagedMachine()
        defer { machine.remove() }
        let environment = Probe.environment([
            "XDG_CONFIG_DIRS": machine.admin.path, "XDG_CONFIG_HOME": machine.user.path,
        ])
        let follower = try Probe.Running(["managed-follow", machine.suite], environment: environment)
        defer { _ = follower.end(with: SIGKILL) }
        // Every wait for its lines is bounded: past a minute it is stopped, and its output ends.
        let process = follower.process
        DispatchQueue.global().asyncAfter(deadline: .now() + 60) {
            guard process.isRunning else { return }
            kill(process.processIdentifier, SIGKILL)
        }
        #expect(
            follower.waitForLine { $0.hasPrefix("ready") }
                == "ready telemetry=true writable=true source=the code's default")
        let writer = { (value: String) -> String in
            let process = try Probe.Running(["managed-write", machine.suite, value], environment: environment)
            let line = process.waitForLine { $0.hasPrefix("telemetry=") } ?? ""
            process.process.waitUntilExit()
            return line
        }
        #expect(try writer("false") == "telemetry=false reported=")
        #expect(follower.waitForLine { $0.contains("telemetry=false writable=true") } != nil)
        let userBytes = try Data(contentsOf: machine.userFile)

        try machine.write("locks", "telemetry\n")
        let locks = machine.adminFile("locks").path
        #expect(follower.waitForLine { $0.contains("telemetry=true writable=false") } != nil)
        let refused = try writer("false")
        #expect(refused.hasPrefix("telemetry=true reported=") && refused.contains(locks))
        #expect(try Data(contentsOf: machine.userFile) == userBytes)

        try FileManager.default.removeItem(atPath: locks)
        #expect(follower.waitForLine { $0.contains("telemetry=false writable=true source=the user's") } != nil)
    }

    private func plist(_ dictionary: [String: Any]) throws -> String {
        String(
            decoding: try PropertyListSerialization.data(fromPropertyList: dictionary, format: .xml, options: 0),
            as: UTF8.self)
    }

    @Test(.tags(.childProcess)) func turningIsolationOnWhileAStoreGoesNeverWaitsForItself() async throws {
        // In a process of its own: isolation is turned on once a process.
        let run = try await NeverCrashesOrHangsTests.runThisBinary(
            filter: "aStoreDroppedWhileIsolationMarksIt", killAfter: 60)
        #expect(!run.timedOut && run.status == 0, "\(run.output)")
        #expect(run.output.contains("passed"), "\(run.output)")
    }

    /// The child's half: a store's last other reference goes while turning isolation on holds it
    /// (held up on the store's lock), so the store deinitializes inside the switch, on its thread.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["TYPEDDEFAULTS_HOSTILE_CHILD"] != nil))
    func aStoreDroppedWhileIsolationMarksIt() throws {
        var store: DefaultsStore? = DefaultsStore.inMemory()
        let lock = try #require(store).ownState.lock
        let turnedOn = DispatchSemaphore(value: 0)
        lock.withLock {
            Thread {
                _ = IsolatedSuites()
                turnedOn.signal()
            }.start()
            // Long enough for the switch to reach the store and wait for its lock.
            usleep(200_000)
            store = nil
        }
        #expect(turnedOn.wait(timeout: .now() + 10) == .success)
    }
}
