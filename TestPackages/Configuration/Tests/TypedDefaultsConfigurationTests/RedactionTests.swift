import Configuration
import Foundation
import Testing
import TypedDefaults
import TypedDefaultsConfiguration

/// What `secrets` names never shows in a description, a debug description, a dump or a mirror
/// of the provider or of its snapshots, as swift-configuration's own providers redact it.
@Suite struct RedactionTests {
    /// Every way a program or a debugger prints a value.
    static func everyPrinting(of subject: Any) -> [String] {
        var dumped = ""
        dump(subject, to: &dumped)
        let children = Mirror(reflecting: subject).children.map { "\($0.label ?? ""): \($0.value)" }
        return [
            String(describing: subject), String(reflecting: subject), "\(subject)", dumped,
            children.joined(separator: ", "),
        ]
    }

    @Test(arguments: ["specific", "dynamic", "all"])
    func secretsAreRedactedWhereverTheProviderIsPrinted(specifier: String) async throws {
        let (_, store) = try Suites.make()
        try store.editStoredValues { values in
            values["database.password"] = "hunter2-secret"
            values["database.host"] = "db.example"
            values["smtp"] = ["password": "mail-secret", "host": "mail.example"]
            values["tokens"] = ["array-secret"]
        }
        let secretKeys: Set = ["database.password", "smtp.password", "tokens"]
        let secrets: SecretsSpecifier<String, ConfigContent> =
            switch specifier {
            case "specific": .specific(secretKeys)
            case "dynamic": .dynamic { key, _ in secretKeys.contains(key) }
            default: .all
            }
        let provider = try DefaultsProvider(store: store, secrets: secrets)
        let snapshot = provider.snapshot()
        let watched = try await provider.watchSnapshot { updates in
            var iterator = updates.makeAsyncIterator()
            return try await iterator.next()
        }
        let subjects: [Any] = [provider, snapshot, watched as Any]
        for subject in subjects {
            for text in Self.everyPrinting(of: subject) {
                for secret in ["hunter2-secret", "mail-secret", "array-secret"] {
                    #expect(!text.contains(secret), "\(type(of: subject)) printed a secret: \(text)")
                }
                if specifier != "all", text.contains("mail.example") {
                    #expect(text.contains("<REDACTED>"), "\(text)")
                }
            }
        }
        // What is not secret still shows, to debug with.
        let shown = String(reflecting: snapshot)
        #expect(shown.contains("<REDACTED>"))
        #expect(shown.contains("db.example") == (specifier != "all"), "\(shown)")
        #expect(shown.contains("mail.example") == (specifier != "all"), "\(shown)")
        #expect(String(describing: provider).hasPrefix("DefaultsProvider["), "\(provider)")
    }
}
