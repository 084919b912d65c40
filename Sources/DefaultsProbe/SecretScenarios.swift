import Foundation
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
        default:
            return false
        }
        return true
    }
}
