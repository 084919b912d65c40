import Foundation
import Testing

@testable import TypedDefaults
@testable import TypedDefaultsStorage

/// A running program keeps hearing other processes' writes after its preferences folder is
/// removed and made again, moved away, or loses its parent: the file watcher watches
/// the folder again once it is back. Each test has folders of its own, never this process's
/// preferences folder, which other tests share.
@Suite(.enabled(if: isLinux), .tags(.childProcess), .startsProcesses, .plistFilesOnly("the plist file's watcher"))
struct RecreatedFolderTests {
    /// How long a write of a child that has exited may take to be heard: "heard, not never".
    static let bound: Double = 10

    /// A folder of the test's own, `parent/prefs`, removed when the test ends.
    final class Place {
        let parent: URL
        let folder: URL

        init() throws {
            parent = FileManager.default.temporaryDirectory.appendingPathComponent("recreated-\(UUID().uuidString)")
            folder = parent.appendingPathComponent("prefs", isDirectory: true)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        }

        deinit { try? FileManager.default.removeItem(at: parent) }

        /// A store in this process on a suite in `folder`, wired to the watcher as
        /// `DefaultsStore(_:)` wires one in the preferences folder.
        func store(_ suite: String) -> DefaultsStore {
            let file = folder.appendingPathComponent("\(suite).plist")
            let state = SuiteRegistry.unlistedState(
                backend: PlistFileBackend(file: PlistFile(url: file), suiteName: suite), label: suite, fileURL: file)
            return DefaultsStore(state: state, durability: .immediate)
        }

        /// Removes `url` (the folder or its parent) and makes the folder again.
        func remake(_ url: URL) throws {
            try FileManager.default.removeItem(at: url)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        }

        /// A child process writes `key` = 0 (`burst 1`) to `suite` in `folder` and exits.
        func childWrites(_ key: String, to suite: String, in folder: URL? = nil) async throws {
            let prefix = String(key.dropLast(2))  // "round1.0" is the first key of burst "round1"
            let run = try await Probe.run(
                ["burst", suite, "1", prefix],
                environment: Probe.environment(["XDG_CONFIG_HOME": (folder ?? self.folder).path]))
            #expect(run.status == 0, "\(run.errors)")
        }
    }

    static func suiteName(_ label: String = #function) -> String {
        "recreated.\(label.filter { $0.isLetter }).\(UUID().uuidString.prefix(8))"
    }

    /// Observes `key` (default -1) in `store`, runs `change`, then waits for the observer to
    /// hear the 0 a child wrote, and for a read to show it.
    static func hears(
        _ key: String, in store: DefaultsStore, after change: () async throws -> Void
    ) async throws -> Bool {
        let value = UserDefault(wrappedValue: -1, key, store: store)
        let seen = Collected<Int>()
        let observation = value.observe { seen.append($0.newValue) }
        defer { observation.cancel() }
        try await change()
        return await eventually(seconds: bound) { seen.all.contains(0) } && value.wrappedValue == 0
    }

    @Test func aFolderRemovedAndMadeAgainSeveralTimesIsHeardEachTime() async throws {
        let place = try Place()
        let suite = Self.suiteName()
        let store = place.store(suite)
        for round in 1...3 {
            let heard = try await Self.hears("round\(round).0", in: store) {
                try place.remake(place.folder)
                try await place.childWrites("round\(round).0", to: suite)
            }
            #expect(heard, "round \(round): the write after the folder was made again was not heard")
        }
    }

    @Test func aParentRemovedAndMadeAgainIsHeard() async throws {
        let place = try Place()
        let suite = Self.suiteName()
        let store = place.store(suite)
        for round in 1...2 {
            let heard = try await Self.hears("round\(round).0", in: store) {
                try place.remake(place.parent)
                try await place.childWrites("round\(round).0", to: suite)
            }
            #expect(heard, "round \(round): the write after the parent was made again was not heard")
        }
    }

    /// The child makes the folder itself, and may write before the watch is back: the suites
    /// look once it is.
    @Test func aWriteThatMakesTheFolderAgainIsHeard() async throws {
        let place = try Place()
        let suite = Self.suiteName()
        let store = place.store(suite)
        for round in 1...2 {
            let heard = try await Self.hears("round\(round).0", in: store) {
                try FileManager.default.removeItem(at: place.parent)
                try await place.childWrites("round\(round).0", to: suite)
            }
            #expect(heard, "round \(round): the write that made the folder again was not heard")
        }
    }

    @Test func aFolderMovedAwayAndReplacedIsHeard() async throws {
        let place = try Place()
        let suite = Self.suiteName()
        let store = place.store(suite)
        let heard = try await Self.hears("moved.0", in: store) {
            try FileManager.default.moveItem(at: place.folder, to: place.parent.appendingPathComponent("old"))
            try FileManager.default.createDirectory(at: place.folder, withIntermediateDirectories: true)
            try await place.childWrites("moved.0", to: suite)
        }
        #expect(heard, "the write in the folder made in place of the moved one was not heard")
    }

    /// Two suites in one folder and one in another, both folders made again at once: every
    /// suite of both is heard.
    @Test func severalSuitesInTwoFoldersAreHeard() async throws {
        let (first, second) = (try Place(), try Place())
        let names = [Self.suiteName(), Self.suiteName(), Self.suiteName()]
        let places = [first, first, second]
        let values = names.indices.map { UserDefault(wrappedValue: -1, "suite.0", store: places[$0].store(names[$0])) }
        let seen = names.map { _ in Collected<Int>() }
        let observations = values.indices.map { index in values[index].observe { seen[index].append($0.newValue) } }
        defer { observations.forEach { $0.cancel() } }
        try first.remake(first.folder)
        try second.remake(second.folder)
        for index in names.indices { try await places[index].childWrites("suite.0", to: names[index]) }
        for index in names.indices {
            let heard = await eventually(seconds: Self.bound) { seen[index].all.contains(0) }
            #expect(heard && values[index].wrappedValue == 0, "suite \(index) was not heard")
        }
    }
}
