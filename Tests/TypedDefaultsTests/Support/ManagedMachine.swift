import Foundation

@testable import TypedDefaults
@testable import TypedDefaultsStorage

/// A user's folder and an administrator's, of one test, and a suite kept in the user's.
struct ManagedMachine {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("managed-\(UUID().uuidString)")
    let suite = "com.example.managed"
    var user: URL { root.appendingPathComponent("user") }
    var admin: URL { root.appendingPathComponent("admin") }
    var userFile: URL { user.appendingPathComponent("\(suite).plist") }
    func adminFile(_ kind: String) -> URL { admin.appendingPathComponent("\(suite).\(kind)") }

    init() throws {
        try FileManager.default.createDirectory(at: user, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: admin, withIntermediateDirectories: true)
    }

    /// The user's suite as a program of this machine opens it, `XDG_CONFIG_DIRS` being `dirs`.
    func store(dirs: String? = nil, durability: Durability = .immediate) -> DefaultsStore {
        let folders = AdministratorFolders(environment: ["XDG_CONFIG_DIRS": dirs ?? admin.path], userFolder: user)
        let state = SuiteRegistry.unlistedState(
            backend: PlistFileBackend(file: PlistFile(url: userFile), suiteName: suite), label: suite,
            fileURL: userFile, administration: .files(suite: suite, folders: folders))
        return DefaultsStore(state: state, durability: durability)
    }

    func write(_ kind: String, _ text: String) throws {
        try Data(text.utf8).write(to: adminFile(kind))
    }

    func remove() { try? FileManager.default.removeItem(at: root) }
}

extension DefaultsStore {
    /// Installs `administration` as the suite's layer, as a change of the administrator's files does.
    func administer(_ administration: DefaultsAdministration?) {
        var after = AfterUnlock()
        ownState.lock.withLock { ownState.install(administration?.layer, &after) }
        after.run()
    }
}
