import Foundation
import Testing
import TypedDefaults
import TypedDefaultsSchema
import TypedDefaultsStorage

@testable import TypedDefaultsSecrets

/// Secret settings against a real GNOME Keyring daemon, each test on a bus and keyring of its
/// own (``KeyringDaemon``), and in child processes that share them.
@Suite(
    .enabled(if: KeyringDaemon.isInstalled || ProcessInfo.processInfo.environment["CI"] != nil, "needs gnome-keyring"),
    .tags(.childProcess), .startsProcesses)
struct KeyringTests {
    static let service = "com.example.keyring-test"

    @Test func storesReadsReplacesAndRemovesASecret() throws {
        let daemon = try KeyringDaemon()
        let token = Secret("token", service: Self.service, keyring: daemon.keyring)
        #expect(try token.value() == nil)
        #expect(try token.isSet == false)
        try token.set("first-7f3a")
        #expect(try token.value() == "first-7f3a")
        try token.set("second-9c1d")
        #expect(try token.value() == "second-9c1d")
        #expect(try token.isSet)
        token.wrappedValue = nil
        #expect(try token.value() == nil)
        #expect(try token.isSet == false)
        // Two keys, two items; a replaced value leaves one item, not two.
        let other = Secret("password", service: Self.service, keyring: daemon.keyring)
        try other.set("pw-0b5e")
        try token.set("third-4d2c")
        try token.set("fourth-8e6f")
        #expect(try other.value() == "pw-0b5e" && token.value() == "fourth-8e6f")
        #expect(try daemon.keyring.itemCount(for: token.item) == 1)
    }

    /// Removers and readers racing each other: a removed item is gone, never an error.
    @Test func concurrentRemovesAndReadsOfOneItemNeverFail() throws {
        let daemon = try KeyringDaemon()
        let keyring = daemon.keyring
        let item = KeyringItem(service: Self.service, account: "raced")
        let failures = Locked([String]())
        for _ in 0..<10 {
            try keyring.setSecret(Data("r".utf8), for: item)
            DispatchQueue.concurrentPerform(iterations: 4) { index in
                do {
                    if index.isMultiple(of: 2) {
                        try keyring.removeSecret(for: item)
                    } else {
                        _ = try keyring.secret(for: item)
                    }
                } catch {
                    failures.withLock { $0.append("\(error)") }
                }
            }
        }
        #expect(failures.withLock { $0 }.isEmpty, "\(failures.withLock { $0 })")
    }

    @Test func aSecretTooLargeOrAnItemTheKeyringCannotNameIsRefused() throws {
        let daemon = try KeyringDaemon()
        let big = Secret("big", service: Self.service, keyring: daemon.keyring)
        #expect(throws: KeyringError.tooLarge(bytes: 2 << 20)) { try big.set(String(repeating: "z", count: 2 << 20)) }
        try big.set(String(repeating: "z", count: 1 << 20))
        #expect(try big.value()?.count == 1 << 20)
        let nul = Secret("a\0b", service: Self.service, keyring: daemon.keyring)
        do {
            try nul.set("nul-key-value")
            Issue.record("stored an item whose key holds a NUL")
        } catch {
            if case .unsupportedItem = error {} else { Issue.record("expected unsupportedItem, got \(error)") }
        }
    }

    @Test func twoProcessesShareTheSecret() async throws {
        let daemon = try KeyringDaemon()
        let environment = Probe.environment(["DBUS_SESSION_BUS_ADDRESS": daemon.address, "PROBE_SECRET": "child-51ab"])
        let written = try await Probe.run(["secret-write", Self.service], environment: environment)
        #expect(written.output.contains("stored"), "\(written.output)\(written.errors)")
        let token = Secret("token", service: Self.service, keyring: daemon.keyring)
        #expect(try token.value() == "child-51ab")
        try token.set("parent-62bc")
        var check = environment
        check["PROBE_SECRET"] = "parent-62bc"
        let read = try await Probe.run(["secret-check", Self.service], environment: check)
        #expect(read.output.contains("same"), "\(read.output)\(read.errors)")
        token.wrappedValue = nil
        let removed = try await Probe.run(["secret-check", Self.service], environment: check)
        #expect(removed.output.contains("none"), "\(removed.output)\(removed.errors)")
        // Neither output nor the keyring's files hold a secret's bytes.
        for output in [written, read, removed] {
            #expect(!(output.output + output.errors).contains("child-51ab"))
            #expect(!(output.output + output.errors).contains("parent-62bc"))
        }
        try expectNoSecretBytes(["child-51ab", "parent-62bc"], in: daemon.files)
    }

    @Test func aLockedKeyringReadsNilReportsAndRefusesWrites() throws {
        let daemon = try KeyringDaemon()
        let token = Secret("token", service: Self.service, keyring: daemon.keyring)
        try token.set("locked-77aa")
        try daemon.lockAll()
        let (read, reports) = ReportedErrors.during { token.wrappedValue }
        #expect(read == nil)
        #expect(reports.count == 1)
        #expect("\(reports)".contains("locked") && !"\(reports)".contains("locked-77aa"), "\(reports)")
        #expect(throws: KeyringError.locked) { try token.value() }
        #expect(throws: KeyringError.locked) { try token.set("new-88bb") }
        #expect(throws: KeyringError.locked) { try token.set(nil) }
        #expect(try token.isSet, "a locked item is still known to be set")
    }

    /// A keyring that starts locked (as after a reboot, before the desktop's login unlocks it)
    /// lists none of its items: every call says locked, none says "not stored".
    @Test func aKeyringThatStartsLockedReadsLockedNotNil() throws {
        let daemon = try KeyringDaemon()
        let token = Secret("token", service: Self.service, keyring: daemon.keyring)
        try token.set("started-locked-5e1f")
        try daemon.restart(unlocking: false)
        #expect(throws: KeyringError.locked) { try token.value() }
        #expect(throws: KeyringError.locked) { try token.isSet }
        #expect(throws: KeyringError.locked, "a removal that cannot see the item removes nothing") {
            try token.set(nil)
        }
        #expect(throws: KeyringError.locked) { try token.set("new-6f2a") }
        let neverStored = Secret("neverStored", service: Self.service, keyring: daemon.keyring)
        #expect(throws: KeyringError.locked, "locked, whether or not an item is there") { try neverStored.value() }
        let (read, reports) = ReportedErrors.during { token.wrappedValue }
        #expect(read == nil && reports.count == 1, "\(reports)")
        #expect("\(reports)".contains("locked") && !"\(reports)".contains("started-locked-5e1f"), "\(reports)")
        // Unlocked, it is there, as it was.
        try daemon.restart(unlocking: true)
        #expect(try token.value() == "started-locked-5e1f")
    }

    /// A daemon that has no keyring at all (none made, no default) holds nothing this library
    /// stored: "not stored" is true there, and a write says why it cannot store.
    @Test func aDaemonWithNoKeyringHoldsNoSecret() throws {
        let daemon = try KeyringDaemon(unlocking: false)
        let token = Secret("token", service: Self.service, keyring: daemon.keyring)
        #expect(try token.value() == nil)
        #expect(try token.isSet == false)
        try token.set(nil)
        do {
            try token.set("nowhere-3c8d")
            Issue.record("stored an item with no keyring to keep it")
        } catch {
            if case .serviceUnavailable = error {} else { Issue.record("expected serviceUnavailable, got \(error)") }
        }
        #expect(daemon.files.isEmpty, "\(daemon.files)")
    }

    @Test func noKeyringDaemonIsReportedNeverWrittenElsewhere() throws {
        let bus = try KeyringDaemon(withDaemon: false)
        let token = Secret("token", service: Self.service, keyring: bus.keyring)
        #expect(throws: KeyringError.self) { try token.set("nowhere-99cc") }
        do {
            try token.set("nowhere-99cc")
        } catch {
            guard case .serviceUnavailable = error else {
                Issue.record("expected serviceUnavailable, got \(error)")
                return
            }
        }
        let (read, reports) = ReportedErrors.during { token.wrappedValue }
        #expect(read == nil && reports.count == 1, "\(reports)")
        #expect(bus.files.isEmpty, "nothing written where a keyring would keep it: \(bus.files)")
    }

    @Test func noSessionBusIsReported() throws {
        var keyring = SystemKeyring(timeout: .seconds(2))
        keyring.environment = ["XDG_RUNTIME_DIR": "/nonexistent-\(UUID().uuidString)"]
        let token = Secret("token", service: Self.service, keyring: keyring)
        #expect(throws: KeyringError.self) { try token.value() }
        keyring.environment = ["DBUS_SESSION_BUS_ADDRESS": "unix:path=/nonexistent-\(UUID().uuidString)"]
        let missing = Secret("token", service: Self.service, keyring: keyring)
        do {
            _ = try missing.value()
            Issue.record("read a secret over a bus that does not exist")
        } catch {
            guard case .noSessionBus = error else {
                Issue.record("expected noSessionBus, got \(error)")
                return
            }
        }
    }

    private func expectNoSecretBytes(
        _ secrets: [String], in files: [URL], sourceLocation: SourceLocation = #_sourceLocation
    )
        throws
    {
        #expect(!files.isEmpty, sourceLocation: sourceLocation)
        for file in files {
            let bytes = try Data(contentsOf: file)
            for secret in secrets {
                #expect(
                    bytes.range(of: Data(secret.utf8)) == nil, "\(file.lastPathComponent) holds \(secret)",
                    sourceLocation: sourceLocation)
            }
        }
    }
}

/// A bus that accepts and never answers: every call ends by its timeout.
@Suite struct KeyringTimeoutTests {
    @Test func aSilentBusTimesOut() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("silent-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("bus").path
        let listener = try SilentSocket(path: path)
        defer { listener.close() }
        var keyring = SystemKeyring(timeout: .milliseconds(300))
        keyring.environment = ["DBUS_SESSION_BUS_ADDRESS": "unix:path=\(path)"]
        let started = ContinuousClock.now
        #expect(throws: KeyringError.timedOut) { try keyring.secret(for: KeyringItem(service: "s", account: "a")) }
        #expect(ContinuousClock.now - started < .seconds(10))
    }
}

/// A setting an earlier release kept in clear, moved into the keyring by a migration step in a
/// real process, killed at the worst moment, and run again.
@Suite(
    .enabled(if: KeyringDaemon.isInstalled || ProcessInfo.processInfo.environment["CI"] != nil, "needs gnome-keyring"),
    .tags(.childProcess), .startsProcesses)
struct MovingIntoTheKeyringTests {
    /// A keyring, a preferences folder for the children, a suite name, the children's
    /// environment (with `secret` to plant), and the suite's file.
    private func setUp(secret: String) throws -> (
        daemon: KeyringDaemon, service: String, environment: [String: String], suiteFile: URL
    ) {
        let daemon = try KeyringDaemon()
        let preferences = daemon.home.appendingPathComponent("config")
        try FileManager.default.createDirectory(at: preferences, withIntermediateDirectories: true)
        let service = "com.example.moving-\(UUID().uuidString.prefix(8))"
        let environment = Probe.environment([
            "DBUS_SESSION_BUS_ADDRESS": daemon.address, "XDG_CONFIG_HOME": preferences.path, "PROBE_SECRET": secret,
        ])
        return (daemon, service, environment, preferences.appendingPathComponent("\(service).plist"))
    }

    @Test func aClearValueMovesIntoTheKeyringAndLeavesTheSuite() async throws {
        let (daemon, service, environment, suiteFile) = try setUp(secret: "clear-3e9f")
        let planted = try await Probe.run(["secret-plant", service], environment: environment)
        #expect(planted.output.contains("planted"), "\(planted.errors)")
        #expect(try Data(contentsOf: suiteFile).range(of: Data("clear-3e9f".utf8)) != nil)

        // Killed right after the keyring confirmed: the suite still holds the value.
        var stopping = environment
        stopping["PROBE_STOP_AFTER_KEYRING"] = "1"
        let killed = try await Probe.run(["secret-migrate", service], environment: stopping)
        #expect(killed.crashed || killed.status != 0, "\(killed.output)")
        #expect(try Data(contentsOf: suiteFile).range(of: Data("clear-3e9f".utf8)) != nil, "nothing lost")
        let token = Secret("token", service: service, keyring: daemon.keyring)
        #expect(try token.value() == "clear-3e9f")

        // Run again: the clear copy goes, the secret stays.
        let migrated = try await Probe.run(["secret-migrate", service], environment: environment)
        #expect(migrated.output.contains("migrated"), "\(migrated.output)\(migrated.errors)")
        #expect(try Data(contentsOf: suiteFile).range(of: Data("clear-3e9f".utf8)) == nil)
        #expect(try token.value() == "clear-3e9f")
        for output in [planted, killed, migrated] { #expect(!(output.output + output.errors).contains("clear-3e9f")) }
        let keyringFiles = daemon.files.filter { $0.path.contains("/data/") }
        try #require(!keyringFiles.isEmpty)
        for file in keyringFiles { #expect(try Data(contentsOf: file).range(of: Data("clear-3e9f".utf8)) == nil) }
    }

    @Test func aLockedKeyringFailsTheStepAndTheSuiteKeepsTheValue() async throws {
        let (daemon, service, environment, suiteFile) = try setUp(secret: "kept-1a2b")
        _ = try await Probe.run(["secret-plant", service], environment: environment)
        try daemon.lockAll()
        let failed = try await Probe.run(["secret-migrate", service], environment: environment)
        #expect(failed.output.contains("error") && failed.output.contains("locked"), "\(failed.output)")
        #expect(!failed.output.contains("kept-1a2b"))
        #expect(try Data(contentsOf: suiteFile).range(of: Data("kept-1a2b".utf8)) != nil)
    }
}

/// What a keyring must never do with a secret, whatever the caller does.
@Suite struct SecretLimitsTests {
    /// A dry run of a move into the keyring shows no secret and stores none.
    @Test func aDryRunOfAMoveIntoTheKeyringShowsAndStoresNothing() throws {
        let suite = try TestSuite()
        suite.plant("sk-dry-41d0", forKey: "token")
        let keyring = MemoryKeyring()
        let previews = try suite.store.pendingMigrations([.moveIntoKeyring("token", service: "dry", keyring: keyring)])
        #expect(!"\(previews)".contains("sk-dry-41d0"), "\(previews)")
        #expect("\(previews)".contains("a secret"), "\(previews)")
        #expect(try keyring.containsSecret(for: KeyringItem(service: "dry", account: "token")) == false)
        #expect(suite.defaults.string(forKey: "token") == "sk-dry-41d0")
    }

    @Test func reflectionShowsNoSecret() throws {
        let keyring = MemoryKeyring()
        let token = Secret("token", service: "reflect", keyring: keyring)
        try token.set("sk-leak-8c1f")
        for text in [dumped(keyring), dumped(token), String(reflecting: keyring), "\(token)"] {
            #expect(!text.contains("sk-leak-8c1f"), "\(text)")
        }
    }

    /// A failed write of a secret is reported as what it is: nothing stored, nothing kept to
    /// write later, no copy anywhere else.
    @Test func aFailedWriteSaysTheSecretWasNotStored() throws {
        let keyring = MemoryKeyring()
        let token = Secret("token", service: "unstored", keyring: keyring)
        keyring.failure = .locked
        let (_, reports) = ReportedErrors.during { token.wrappedValue = "sk-unstored-2b7e" }
        try #require(reports.count == 1, "\(reports)")
        guard case .writeFailed(_, let underlying) = reports[0] else {
            Issue.record("expected writeFailed, got \(reports[0])")
            return
        }
        #expect(underlying as? KeyringError == .locked)
        let text = "\(reports[0])"
        #expect(text.contains("the secret was not stored, and no copy of it is kept anywhere else"), "\(text)")
        #expect(!text.contains("next flush") && !text.contains("sk-unstored-2b7e"), "\(text)")
        keyring.failure = nil
        #expect(try keyring.containsSecret(for: token.item) == false)
    }

    private func dumped(_ value: Any) -> String {
        var text = ""
        dump(value, to: &text)
        return text
    }

    /// A connection attempt, a wait and a deadline of a day or more are bounded, never a trap.
    @Test func aVeryLongTimeoutIsADay() throws {
        var keyring = SystemKeyring(timeout: .seconds(Int64.max))
        keyring.environment = ["DBUS_SESSION_BUS_ADDRESS": "unix:path=/nonexistent-\(UUID().uuidString)"]
        #expect(throws: KeyringError.self) { try keyring.secret(for: KeyringItem(service: "s", account: "a")) }
        var pair: [Int32] = [0, 0]
        #expect(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &pair) == 0)
        defer { pair.forEach { _ = Glibc.close($0) } }
        #expect(Glibc.write(pair[1], "x", 1) == 1)
        try SystemSocket.wait(pair[0], forWriting: false, within: .seconds(Int64.max))
    }

    /// A bus whose queue of connections is full: the connection attempt ends by the deadline.
    @Test func aBusThatAcceptsNoMoreConnectionsTimesOut() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("full-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("bus").path
        let listener = try SilentSocket(path: path, backlog: 0)
        defer { listener.close() }
        var fillers: [Int32] = []
        defer { fillers.forEach { _ = Glibc.close($0) } }
        for _ in 0..<4 {
            if let filler = try? SystemSocket.connect(
                path: Array(path.utf8), naming: path, by: .now + .milliseconds(50))
            {
                fillers.append(filler)
            }
        }
        var keyring = SystemKeyring(timeout: .milliseconds(300))
        keyring.environment = ["DBUS_SESSION_BUS_ADDRESS": "unix:path=\(path)"]
        let started = ContinuousClock.now
        #expect(throws: KeyringError.self) { try keyring.secret(for: KeyringItem(service: "s", account: "a")) }
        #expect(ContinuousClock.now - started < .seconds(5))
    }
}
