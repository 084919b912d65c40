import ArgumentParser
import TypedDefaults

struct Delete: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete",
        abstract: "Delete a key, or every key of a suite.",
        discussion: """
            Deleting every key removes the suite's file. A published schema is the program's and stays, \
            and so do secrets, which the keyring keeps: a secret's key deletes it from the keyring. \
            A key an administrator locked is refused, and so is deleting every key while a locked \
            key holds a value of the user's: nothing is deleted.

            Examples:
              typed-defaults delete com.example.app fontSize
              typed-defaults delete com.example.app
            """)

    @Argument(help: "The suite.") var suite: String
    @Argument(help: "The key; without one, every key.") var key: String?

    func run() throws {
        let store = try Suites.existing(suite)
        // Deleting from the suite shows nothing: a schema that cannot be read does not stop it.
        if let key, (try? SecretKeys.isSecret(key, of: store)) == true { return try deleteSecret(key, store) }
        if let key { try Administered.refuseLocked([key], in: store) }
        try Suites.edit(store) { values in
            guard let key else {
                values.removeAll()
                return
            }
            guard values.removeValue(forKey: DefaultsStoredKey(key)) != nil else {
                throw ToolError("the key \(key) does not exist in the suite \(suite); nothing was deleted")
            }
        }
    }

    /// Removes a secret from the keyring, and any copy in clear the suite still holds.
    private func deleteSecret(_ key: String, _ store: DefaultsStore) throws {
        try SecretKeys.remove(suite: suite, key: key)
        // Only a suite that holds a copy in clear is edited: one with only a schema gets no files.
        guard try Suites.values(of: store)[DefaultsStoredKey(key)] != nil else { return }
        try Suites.edit(store) { $0[DefaultsStoredKey(key)] = nil }
    }
}
