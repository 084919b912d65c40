import Foundation
import TypedDefaults
import TypedDefaultsSecrets

/// A secret setting from another process, over the session bus the environment names. The
/// secret comes from `PROBE_SECRET`, never the command line, and is never printed: a test scans
/// every output for it.
enum SecretScenario {
    static func run(_ name: String, service: String) throws -> Bool {
        let token = Secret("token", service: service)
        let given = ProcessInfo.processInfo.environment["PROBE_SECRET"]
        switch name {
        case "secret-write":
            do {
                try token.set(given)
                print("stored")
            } catch {
                print("error \(error)")
            }
        case "secret-check":
            do {
                let stored = try token.value()
                print(stored == nil ? "none" : stored == given ? "same" : "different")
            } catch {
                print("error \(error)")
            }
        case "secret-plant":
            // As an earlier release stored it: in clear, in the suite named after the service.
            let store = try DefaultsStore(suiteName: service)
            UserDefault(wrappedValue: "", "token", store: store).wrappedValue = given ?? ""
            try store.flush()
            print("planted")
        case "secret-migrate":
            // With PROBE_STOP_AFTER_KEYRING=1, killed the moment the keyring confirmed, before
            // the suite's file is replaced.
            let stops = ProcessInfo.processInfo.environment["PROBE_STOP_AFTER_KEYRING"] == "1"
            let keyring = StoppingKeyring(stops: stops)
            let store = try DefaultsStore(suiteName: service)
            do {
                try store.migrate([.moveIntoKeyring("token", service: service, keyring: keyring)])
                print("migrated")
            } catch {
                print("error \(error)")
            }
        default:
            return false
        }
        return true
    }
}

/// The system's keyring, which ends this process with SIGKILL once it stored a secret, when
/// asked to: a crash at the worst moment of a move into the keyring.
struct StoppingKeyring: Keyring {
    var stops: Bool
    let system = SystemKeyring()

    func secret(for item: KeyringItem) throws(KeyringError) -> Data? { try system.secret(for: item) }

    func setSecret(_ secret: Data, for item: KeyringItem) throws(KeyringError) {
        try system.setSecret(secret, for: item)
        if stops { kill(getpid(), SIGKILL) }
    }

    func removeSecret(for item: KeyringItem) throws(KeyringError) { try system.removeSecret(for: item) }

    func containsSecret(for item: KeyringItem) throws(KeyringError) -> Bool { try system.containsSecret(for: item) }
}
