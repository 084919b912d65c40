import Foundation
import Testing

@testable import TypedDefaults
@testable import TypedDefaultsStorage

/// Crafted archives, suite paths that are no regular file, odd XML, canonically equal keys, a
/// backend that re-enters, a lock held at exit and a folder moved under the watcher: the reader
/// never crashes, never hangs, and never misses a change. Each test's comment says what input it
/// is; the test fails without the handling it guards.
@Suite(.enabled(if: isLinux)) struct NeverCrashesOrHangsTests {
    // MARK: Keyed archives that crash corelibs' unarchiver

    /// A keyed archive whose root is the expected class passes the engine's only check (the root
    /// class name), and corelibs' NSKeyedUnarchiver then kills the process while it decodes an
    /// object nested in it, inside the class's own `init(coder:)`, which decodes
    /// `decodeObject(of: NSString.self, forKey: "name")` exactly as the SupportedTypes article's
    /// `Palette` does. So a few hundred bytes of `Data` that another program (or
    /// `typed-defaults write --data`) stores under a secure-coding key crash every process that
    /// reads the key, at every launch. The Semantics article promises "a plain read never throws
    /// and never crashes".
    ///
    /// - `unexpectedClass`: "name" is an NSArray: corelibs' `fatalError("Value was of unexpected
    ///   class NSArray")` in its `NSKeyedUnarchiver`, SIGILL.
    /// - `stringThatIsANumber`: "name" is an NSString whose `NS.string` is an integer: corelibs'
    ///   `as! String` in `NSString.init(coder:)`, SIGABRT.
    /// - `containsItself`: "name" refers back to the root: unbounded recursion, SIGSEGV.
    @Test(
        .tags(.childProcess), .startsProcesses, arguments: ["unexpectedClass", "stringThatIsANumber", "containsItself"])
    func aCraftedArchiveOfTheRightClassNeverCrashesTheReader(variant: String) async throws {
        let suite = try TestSuite()
        try await Self.plantArchive(variant: variant, key: "secureCoding.0", in: suite.plistURL)
        // The probe reads `secureCoding.0` as `Swatch` (a secure-coding class like the
        // SupportedTypes article's).
        let read = try await Self.runProbe(["verify", suite.name, "secureCoding"])
        #expect(!read.crashed, "the reader crashed (signal \(read.status)): \(read.errors.suffix(400))")
        #expect(read.errors.contains("secureCoding.0"), "\(read.errors.suffix(400))")
    }

    /// The same through a plain `URL` setting, no secure-coding class of the program's at all: a
    /// `URL` key also reads an archived `NSURL` (SupportedTypes: "an archived `NSURL`"), checks
    /// only that the root is an `NSURL`, and corelibs' `NSURL.init(coder:)` dies on `NS.relative`
    /// being an NSArray.
    @Test(.tags(.childProcess), .startsProcesses) func aCraftedNSURLArchiveUnderAURLKeyNeverCrashesTheReader()
        async throws
    {
        let suite = try TestSuite()
        try await Self.plantArchive(variant: "url", key: "url.0", in: suite.plistURL)
        let read = try await Self.runProbe(["verify", suite.name, "url"])
        #expect(!read.crashed, "the reader crashed (signal \(read.status)): \(read.errors.suffix(400))")
        #expect(read.errors.contains("url.0"), "\(read.errors.suffix(400))")
    }

    /// Writes a suite file holding one crafted keyed archive under `key`.
    static func plantArchive(variant: String, key: String, in file: URL) async throws {
        let script = #"""
            import plistlib, sys
            from plistlib import UID
            variant, key, path = sys.argv[1], sys.argv[2], sys.argv[3]
            swatch = {"$classes": ["DefaultsProbe.Swatch", "NSObject"], "$classname": "DefaultsProbe.Swatch"}
            nsarray = {"$classes": ["NSArray", "NSObject"], "$classname": "NSArray"}
            nsstring = {"$classes": ["NSString", "NSObject"], "$classname": "NSString"}
            nsurl = {"$classes": ["NSURL", "NSObject"], "$classname": "NSURL"}
            objects = {
                "unexpectedClass": ["$null", {"name": UID(2), "hue": 1, "$class": UID(3)},
                                    {"NS.objects": [], "$class": UID(4)}, swatch, nsarray],
                "stringThatIsANumber": ["$null", {"name": UID(2), "hue": 1, "$class": UID(3)},
                                        {"NS.string": 42, "$class": UID(4)}, swatch, nsstring],
                "containsItself": ["$null", {"name": UID(1), "hue": 1, "$class": UID(2)}, swatch],
                "url": ["$null", {"NS.base": UID(0), "NS.relative": UID(2), "$class": UID(3)},
                        {"NS.objects": [], "$class": UID(4)}, nsurl, nsarray],
            }[variant]
            archive = {"$archiver": "NSKeyedArchiver", "$version": 100000, "$top": {"root": UID(1)},
                       "$objects": objects}
            data = plistlib.dumps(archive, fmt=plistlib.FMT_BINARY)
            open(path, "wb").write(plistlib.dumps({key: data}, fmt=plistlib.FMT_BINARY))
            """#
        _ = try await Python.run(script, variant, key, file.path)
    }

    // MARK: Suite files that are no regular file

    /// A FIFO planted at the suite's path: `PlistFile.readBytes()` opens it with a blocking
    /// `open(O_RDONLY)`, which waits for a writer for ever. The first read of any key hangs the
    /// program (measured: `typed-defaults read` and a `@UserDefault` read both still blocked after
    /// 10 s). The StoresAndDurability article lists what cannot be read (another user's file, mode
    /// 000, a folder, no file descriptors): `readFailed`, reported once, defaults read.
    @Test(
        .plistFilesOnly(
            "corelibs `UserDefaults` opens a FIFO and waits for a writer for ever, and reads a device to its end"),
        .tags(.childProcess), .startsProcesses) func aFIFOAtTheSuitePathHangsNoRead() async throws
    {
        let folder = try Self.privateFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let suite = "hostile.fifo"
        #expect(mkfifo(folder.appendingPathComponent("\(suite).plist").path, 0o600) == 0)
        let touched = try await Self.runProbe(
            ["touch", suite], environment: ["XDG_CONFIG_HOME": folder.path], killAfter: 15)
        #expect(!touched.timedOut, "still blocked after 15 s: the first read of the suite hangs")
        #expect(touched.output.contains("value default"), "\(touched.output) \(touched.errors)")
    }

    /// A suite file that never ends (a link to /dev/zero, or any file an attacker grows): the
    /// reader reads the whole file into memory with no bound, in 64 KiB chunks, then copies it
    /// into an array. Under a 2 GB address-space limit the probe dies in `Data.append`
    /// ("unable to allocate memory"); without one it takes the machine's memory. A sparse file of
    /// 1 GiB (no disk space) took 2.0 GB of resident memory and 3.5 s to be set aside.
    @Test(
        .plistFilesOnly(
            "corelibs `UserDefaults` opens a FIFO and waits for a writer for ever, and reads a device to its end"),
        .tags(.childProcess), .startsProcesses) func aSuiteFileThatNeverEndsIsNoUnboundedRead() async throws
    {
        let folder = try Self.privateFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let suite = "hostile.zero"
        try FileManager.default.createSymbolicLink(
            atPath: folder.appendingPathComponent("\(suite).plist").path, withDestinationPath: "/dev/zero")
        var touched = try await Self.runProbe(
            ["touch", suite], environment: ["XDG_CONFIG_HOME": folder.path], killAfter: 60,
            launcher: ["/usr/bin/prlimit", "--as=2000000000", "--"])
        // ThreadSanitizer starts no process with a limited address space: the limit is only a
        // safety net, so such a build runs the probe without it.
        if touched.errors.contains("ThreadSanitizer setrlimit() failed") {
            touched = try await Self.runProbe(
                ["touch", suite], environment: ["XDG_CONFIG_HOME": folder.path], killAfter: 60)
        }
        #expect(!touched.timedOut && !touched.crashed, "status \(touched.status): \(touched.errors.prefix(300))")
        #expect(touched.output.contains("value default"), "\(touched.output) \(touched.errors.prefix(300))")
    }

    /// A suite file that does not parse and cannot be moved aside: the suite is a symlink (dotfiles
    /// kept elsewhere) in a folder where the link cannot be renamed (read-only, its lock file
    /// already there), to a file in a folder that is writable. The engine reports "it could not be
    /// moved aside, and the suite starts empty", and then its next commit writes the suite through
    /// the link over the file: every byte of it is gone. StoresAndDurability: a suite file that
    /// does not parse is renamed aside, "never overwritten". Run as `nobody` (root may rename in a
    /// read-only folder).
    @Test(
        .plistFilesOnly(
            "a plist file that does not parse: corelibs `UserDefaults` reads it as empty, and writes over it"),
        .tags(.childProcess), .startsProcesses) func aCorruptFileThatCannotBeMovedAsideIsNeverOverwritten()
        async throws
    {
        let root = try Self.privateFolder()
        defer {
            chmod(root.appendingPathComponent("prefs").path, 0o755)
            try? FileManager.default.removeItem(at: root)
        }
        let (prefs, dotfiles) = (root.appendingPathComponent("prefs"), root.appendingPathComponent("dotfiles"))
        try FileManager.default.createDirectory(at: prefs, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: dotfiles, withIntermediateDirectories: true)
        let name = "hostile.unmovable"
        let target = dotfiles.appendingPathComponent("\(name).plist")
        let corrupt = Data("{ hand edited = \"unfinished;\n".utf8)
        try writeAtRest(corrupt, to: target)
        try FileManager.default.createSymbolicLink(
            atPath: prefs.appendingPathComponent("\(name).plist").path, withDestinationPath: target.path)
        _ = FileManager.default.createFile(
            atPath: prefs.appendingPathComponent("\(name).plist.lock").path, contents: nil)
        if getuid() == 0 {
            for path in [root.path, prefs.path, dotfiles.path, target.path, prefs.path + "/\(name).plist.lock"] {
                chown(path, 65534, 65534)
            }
        }
        chmod(prefs.path, 0o555)
        let launcher = getuid() == 0 ? ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] : []
        let run = try await Probe.run(
            ["touch", name], environment: Probe.environment(["XDG_CONFIG_HOME": prefs.path, "HOME": root.path]),
            launcher: launcher)
        #expect(run.status == 0, "\(run.errors)")
        #expect(run.errors.contains("could not be moved aside"), "\(run.errors)")
        #expect(try Data(contentsOf: target) == corrupt, "the file that did not parse was written over")
    }

    /// A key declared with `initialValue:` in a suite that cannot be read (here a folder at the
    /// suite's path): every read finds nothing, tries to store the initial value with an update,
    /// which takes the cross-process lock and fails, and reports `updateFailed`: 50 reads, 50
    /// reports (and, on PostgreSQL, one failed transaction per read: an initial value too large or
    /// a key holding U+0000 cost 3 to 88 ms and a report on every read). StoresAndDurability: a
    /// suite that cannot be read is "reported once"; failing commits get "one report per run of
    /// failures, not one per retry".
    @Test func readsOfAnInitialValueKeyInAnUnreadableSuiteReportOnce() throws {
        let suite = try TestSuite()
        try FileManager.default.createDirectory(at: suite.plistURL, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: suite.plistURL) }
        let key = DefaultsKey<Int>("hostile.initial", initialValue: 5)
        let (_, reports) = ReportedErrors.during {
            for _ in 0..<50 { _ = suite.store[key] }
        }
        #expect(reports.count <= 2, "\(reports.count) reports: \(reports.prefix(3))")
    }

    // MARK: XML that corelibs and plistlib read, set aside as corrupt

    /// XML property lists that corelibs' PropertyListSerialization and Python's plistlib both
    /// read, which the engine's reader refuses, so the whole suite is moved aside as
    /// `.corrupt-<timestamp>` and the program starts with defaults. `usASCII` is what Python's
    /// `xml.etree.ElementTree` writes by default (`write(f, xml_declaration=True)` declares
    /// `encoding='us-ascii'` and writes non-ASCII characters as references); `latin1` declares
    /// ISO-8859-1 (corelibs converts it); `processingInstruction` has a `<?…?>` between a
    /// dictionary's entries. Anything the engine's reader refuses must be something corelibs or
    /// plistlib also refuses, or a documented choice: corelibs converts a declared US-ASCII or
    /// ISO-8859-1 text (measured; the StoresAndDurability article, "The Linux facts").
    @Test(arguments: ["usASCII", "latin1", "processingInstruction"])
    func xmlThatCorelibsAndPlistlibReadIsNotSetAside(variant: String) async throws {
        let suite = try TestSuite()
        let documents: [String: [UInt8]] = [
            "usASCII": Array(
                "<?xml version='1.0' encoding='us-ascii'?>\n<plist version=\"1.0\"><dict><key>name</key><string>Zo&#235;</string></dict></plist>"
                    .utf8),
            "latin1": Array(
                "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><plist><dict><key>name</key><string>Zo".utf8) + [0xEB]
                + Array("</string></dict></plist>".utf8),
            "processingInstruction": Array(
                "<?xml version=\"1.0\" encoding=\"UTF-8\"?><plist><dict><?editor cursor=3?><key>name</key><string>Zo\u{EB}</string></dict></plist>"
                    .utf8),
        ]
        let bytes = try #require(documents[variant])
        try Data(bytes).write(to: suite.plistURL)
        // What corelibs reads.
        let parsed =
            try PropertyListSerialization.propertyList(from: Data(bytes), options: [], format: nil) as? [String: Any]
        #expect(parsed?["name"] as? String == "Zo\u{EB}")
        let (name, reports) = ReportedErrors.during {
            UserDefault(wrappedValue: "default", "name", store: suite.store).wrappedValue
        }
        #expect(name == "Zo\u{EB}", "reported: \(reports)")
        #expect(FileManager.default.fileExists(atPath: suite.plistURL.path), "the suite file was moved aside")
    }

    // MARK: Keys that are equal as Swift strings

    /// `renameKey` compares the two names as Swift strings (`guard key != newKey`), for which
    /// "caf\u{E9}" and "cafe\u{301}" are equal: renaming one to the other, which keys are
    /// exact scalars everywhere else makes a real rename (normalizing a key's form), does
    /// nothing, and the suite's version still advances, so the step never runs again. The value
    /// stays under the old key and the program reads the new one as its default. The dry run says
    /// `rename "café" to "café"` and lists no change.
    @Test(.plistFilesOnly("`UserDefaults` keeps one of two keys that are equal as Swift strings"))
    func renamingAKeyToItsCanonicalTwinMovesTheValue() throws {
        let suite = try TestSuite()
        let (nfc, nfd) = ("caf\u{E9}", "cafe\u{301}")
        suite.store[DefaultsKey<Int>(nfc, default: 0)] = 1
        try suite.store.flush()
        try suite.store.migrate([.renameKey(nfc, to: nfd)])
        #expect(suite.store.migrationVersion == 1)
        #expect(suite.store[DefaultsKey<Int>(nfd, default: -1)] == 1, "the value was not moved to the new key")
        #expect(try suite.store.storedValues()[DefaultsStoredKey(nfc)] == nil, "the old key still holds its value")
    }

    /// `DefaultsKeys` are `Hashable` "by name and store" with the name compared as a Swift
    /// string: two keys of one store naming two different stored keys ("caf\u{E9}",
    /// "cafe\u{301}") are equal, so a `Set<DefaultsKeys>` keeps one of them and
    /// `store.reset(set)` leaves the other's value stored.
    @Test func aSetOfKeysKeepsCanonicalTwinsApart() throws {
        let suite = try TestSuite()
        let first = DefaultsKey<Int>("caf\u{E9}", default: 0)
        let second = DefaultsKey<Int>("cafe\u{301}", default: 0)
        suite.store[first] = 1
        suite.store[second] = 2
        let keys: Set<DefaultsKeys> = [first, second]
        #expect(keys.count == 2)
        suite.store.reset(keys)
        #expect(suite.store[first] == 0)
        #expect(suite.store[second] == 0, "reset(set) left the second key stored")
    }

    // MARK: A program's backend that re-enters

    /// A backend whose `load()` announces a change on another thread (it hands the call to a
    /// queue, or its listener thread announces while `load()` waits for it): only a call on the
    /// loading thread itself is dropped, so each load schedules a reload, which loads, which
    /// announces … for ever: measured 714,052 loads in 3 s of an idle program, a core at 100 %.
    /// The protocol's documentation: `changed` "may be called from any thread at any time, even
    /// from inside this backend's own load()".
    @Test(.hangGuard) func aBackendAnnouncingFromItsLoadOnAnotherThreadDoesNotSpin() async throws {
        let backend = AnnouncingBackend()
        let store = DefaultsStore(backend: backend)
        _ = store[DefaultsKey<Int>("k", default: 0)]
        try await Task.sleep(for: .milliseconds(200))
        let before = backend.loads.value
        try await Task.sleep(for: .seconds(1))
        let during = backend.loads.value - before
        backend.stop()  // ends the loop, if any, for the tests that run after
        #expect(during < 10, "\(during) loads in 1 s of an idle store")
    }

    /// A backend whose `load()` reads a key of its own store (a setting that configures it):
    /// `load()` runs holding the suite's lock, which is not re-entrant, so the read waits for
    /// ever on its own thread: a deadlock, not a stall. And the process can then never exit: the
    /// flush at exit waits for that suite's lock too (measured: a test process still running
    /// 100 s after its last test ended). So the read runs in a child (this test binary again,
    /// running only `selfReadingBackendInAChild`), killed after 20 s.
    @Test(.tags(.childProcess), .startsProcesses) func aBackendWhoseLoadReadsItsStoreDoesNotDeadlock() async throws {
        let child = try await Self.runThisBinary(filter: "selfReadingBackendInAChild", killAfter: 20)
        #expect(!child.timedOut, "the child was still blocked after 20 s: \(child.output.suffix(300))")
        #expect(child.output.contains("read done"), "\(child.output.suffix(300))")
    }

    @Test(.enabled(if: ProcessInfo.processInfo.environment["TYPEDDEFAULTS_HOSTILE_CHILD"] != nil))
    func selfReadingBackendInAChild() {
        let backend = SelfReadingBackend()
        let store = DefaultsStore(backend: backend)
        backend.store = store
        _ = store[DefaultsKey<Int>("k", default: 0)]
        print("read done")
    }

    // MARK: The flush at exit

    /// Another process holds the suite's lock (stopped, or stuck); this process writes, its
    /// scheduled flush starts waiting for the lock, it writes again, and it exits.
    /// StoresAndDurability: exit gives up "after 7 s at most when a flush of this process was
    /// already waiting for that lock". Measured: 12.8 s to 30.0 s in five runs. The second write
    /// scheduled a second flush, which waits for the commit lock too; when the first fails after
    /// its 5 s, the second (or a retry, scheduled 0.1 s after each failure) takes the commit lock
    /// before the exit, which polls for it every 50 ms, and waits 5 s for the file lock again; the
    /// exit, seeing a flush of this process committing each time, waits on, up to its 30 s. (The
    /// exit can win that race and end in 7 s; it did not in the runs measured.) Now a flush that
    /// takes the commit lock after the exit began leaves its changes to the exit's flush: 7.2 s in
    /// three runs. The child is this test binary again, running only `exitWhileLocked`.
    @Test(.plistFilesOnly("the plist file's lock, shared with other processes"), .tags(.childProcess), .startsProcesses)
    func anExitWhileAFlushWaitsForAStuckLockEndsWithinSevenSeconds()
        async throws
    {
        let folder = try Self.privateFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let suite = "hostile.stuckLock"
        let holder = try Probe.Running(
            ["holdLock", suite], environment: Probe.environment(["XDG_CONFIG_HOME": folder.path]))
        defer { _ = holder.end(with: SIGKILL) }
        #expect(holder.waitForLine { $0 == "locked" } != nil)
        let start = Date()
        let child = try await Self.runThisBinary(
            filter: "exitWhileLocked", killAfter: 45,
            environment: ["XDG_CONFIG_HOME": folder.path, "TYPEDDEFAULTS_HOSTILE_SUITE": suite])
        let end = child.ended
        // The exit's own time, from the child's `exit` call: the child's start is no part of it.
        let exitAt = child.output.split(separator: "\n").first { $0.hasPrefix("exiting at ") }
            .flatMap { Double($0.dropFirst("exiting at ".count)) }
        let exitTook = end.timeIntervalSince1970 - (exitAt ?? start.timeIntervalSince1970)
        print("stuck lock: the child ran \(end.timeIntervalSince(start)) s, its exit \(exitTook) s")
        #expect(exitAt != nil, "\(child.output.suffix(300))")
        // 7 s, and a margin for a loaded machine.
        #expect(exitTook < 7 + 5, "the exit took \(exitTook) s")
    }

    @Test(.enabled(if: ProcessInfo.processInfo.environment["TYPEDDEFAULTS_HOSTILE_CHILD"] != nil))
    func exitWhileLocked() throws {
        let suite = try #require(ProcessInfo.processInfo.environment["TYPEDDEFAULTS_HOSTILE_SUITE"])
        let store = try DefaultsStore(suiteName: suite)
        store[DefaultsKey<Int>("first", default: 0)] = 1
        Thread.sleep(forTimeInterval: 0.5)  // the flush scheduled 0.1 s after the write now waits for the lock
        store[DefaultsKey<Int>("second", default: 0)] = 2
        print("exiting at \(Date().timeIntervalSince1970)")
        exit(0)
    }

    // MARK: The file watcher

    /// The preferences folder's parent moved away (`mv parent parent.old`, as a deploy that
    /// swaps a release folder does) and a new folder made at the path: the watch on the folder
    /// follows the moved inode (inotify sends nothing for a parent's move), and no later write
    /// at the path is heard, ever. A removed parent is heard again (RecreatedFolderTests); a moved
    /// one is not.
    @Test func aParentMovedAwayAndReplacedIsHeard() async throws {
        let place = try RecreatedFolderTests.Place()
        let suite = RecreatedFolderTests.suiteName()
        let store = place.store(suite)
        let moved = place.parent.deletingLastPathComponent().appendingPathComponent(
            place.parent.lastPathComponent + ".old")
        defer { try? FileManager.default.removeItem(at: moved) }
        let heard = try await RecreatedFolderTests.hears("moved.0", in: store) {
            try FileManager.default.moveItem(at: place.parent, to: moved)
            try FileManager.default.createDirectory(at: place.folder, withIntermediateDirectories: true)
            try await place.childWrites("moved.0", to: suite)
        }
        #expect(heard, "the write after the parent was moved away and made again was not heard")
    }

    /// The preferences folder is a symlink (dotfiles managed by stow or home-manager) that is
    /// pointed at another folder (`ln -sfn new cfg.tmp && mv -T cfg.tmp cfg`): the watch stays on
    /// the old target, and writes at the path are never heard again.
    @Test(.tags(.childProcess), .startsProcesses) func aSymlinkedFolderPointedElsewhereIsHeard() async throws {
        let root = try Self.privateFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let (first, second) = (root.appendingPathComponent("first"), root.appendingPathComponent("second"))
        try FileManager.default.createDirectory(at: first, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: second, withIntermediateDirectories: true)
        let link = root.appendingPathComponent("prefs")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: "first")
        let suite = RecreatedFolderTests.suiteName()
        let file = link.appendingPathComponent("\(suite).plist")
        let state = SuiteRegistry.unlistedState(
            backend: PlistFileBackend(file: PlistFile(url: file), suiteName: suite), label: suite, fileURL: file)
        let store = DefaultsStore(state: state, durability: .immediate)
        let heard = try await RecreatedFolderTests.hears("linked.0", in: store) {
            let temporary = root.appendingPathComponent("prefs.tmp")
            try FileManager.default.createSymbolicLink(atPath: temporary.path, withDestinationPath: "second")
            #expect(rename(temporary.path, link.path) == 0)
            let run = try await Probe.run(
                ["burst", suite, "1", "linked"], environment: Probe.environment(["XDG_CONFIG_HOME": link.path]))
            #expect(run.status == 0, "\(run.errors)")
        }
        #expect(heard, "the write in the folder the link now names was not heard")
    }

    // MARK: Helpers

    /// A new folder under the temporary folder, for a preferences folder of a child's own.
    static func privateFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("hostile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// Runs this test binary again with only the tests `filter` names, and
    /// `TYPEDDEFAULTS_HOSTILE_CHILD` set; kills it after `killAfter` seconds. Its output is both
    /// of the child's outputs, standard output first.
    static func runThisBinary(
        filter: String, killAfter: Double, environment: [String: String?] = [:]
    ) async throws -> Probe.Result {
        var run = try await Probe.run(
            ["--testing-library", "swift-testing", "--filter", filter],
            environment: Probe.environment(
                environment.merging(["TYPEDDEFAULTS_HOSTILE_CHILD": "1", "SWIFT_BACKTRACE": "enable=no"]) { $1 }),
            executable: URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath(), killAfter: killAfter)
        run.output += run.errors
        return run
    }

    /// Runs DefaultsProbe, killing it after `killAfter` seconds; says whether it ended by a signal.
    static func runProbe(
        _ arguments: [String], environment: [String: String?] = [:], killAfter: Double = 60,
        launcher: [String] = []
    ) async throws -> Probe.Result {
        try await Probe.run(
            arguments, environment: Probe.environment(environment.merging(["SWIFT_BACKTRACE": "enable=no"]) { $1 }),
            launcher: launcher, killAfter: killAfter)
    }
}

/// A test backend that stores nothing: a commit gives back what its edit makes of an empty suite.
protocol KeepsNothingBackend: DefaultsBackend {}

extension KeepsNothingBackend {
    func commit(
        _ changes: [DefaultsStoredKey: DefaultsStoredValue?], before deadline: ContinuousClock.Instant,
        edit: (inout [DefaultsStoredKey: DefaultsStoredValue]) throws(DefaultsError) -> Void
    ) throws(DefaultsError) -> [DefaultsStoredKey: DefaultsStoredValue] {
        var values: [DefaultsStoredKey: DefaultsStoredValue] = [:]
        try edit(&values)
        return values
    }
}

/// A dictionary backend whose `load()` hands an announcement of a change to a queue, as a
/// backend that never calls back on the caller's thread does.
final class AnnouncingBackend: KeepsNothingBackend, @unchecked Sendable {  // mutable state only under `lock`
    let location = "hostile.announcing.\(UUID().uuidString)"
    let loads = Counter()
    private let lock = NSLock()
    private var handler: (@Sendable () -> Void)?
    private var active = true

    func stop() { lock.withLock { active = false } }

    func load() throws(DefaultsError) -> [DefaultsStoredKey: DefaultsStoredValue] {
        loads.increment()
        let announce = lock.withLock { active ? handler : nil }
        if let announce { DispatchQueue.global().async { announce() } }
        return [:]
    }

    func observeChanges(_ changed: @escaping @Sendable () -> Void) { lock.withLock { handler = changed } }
}

/// A dictionary backend whose `load()` reads a key of its own store.
final class SelfReadingBackend: KeepsNothingBackend, @unchecked Sendable {  // `store` set once before use
    let location = "hostile.selfReading.\(UUID().uuidString)"
    var store: DefaultsStore?
    private var reading = false

    func load() throws(DefaultsError) -> [DefaultsStoredKey: DefaultsStoredValue] {
        if !reading, let store {
            reading = true
            _ = store[DefaultsKey<Int>("configuration", default: 0)]
        }
        return [:]
    }

    func observeChanges(_ changed: @escaping @Sendable () -> Void) {}
}
