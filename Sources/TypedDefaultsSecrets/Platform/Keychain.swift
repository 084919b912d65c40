#if canImport(Security)
    import Foundation
    import Security

    /// The Keychain's generic passwords, one per item: `kSecAttrService` the program,
    /// `kSecAttrAccount` the key. No CI here runs this file: CI compiles it on Linux against a
    /// stand-in for Security (TestPackages/AppleBranches/); its calls are the Keychain's documented ones,
    /// unchanged since macOS 10.6.
    struct Keychain: Keyring {
        private static func query(_ item: KeyringItem) -> [String: Any] {
            [
                kSecClass as String: kSecClassGenericPassword,
                kSecAttrService as String: item.service,
                kSecAttrAccount as String: item.account,
            ]
        }

        func secret(for item: KeyringItem) throws(KeyringError) -> Data? {
            var query = Self.query(item)
            query[kSecReturnData as String] = true
            query[kSecMatchLimit as String] = kSecMatchLimitOne
            var result: CFTypeRef?
            let status = SecItemCopyMatching(query as CFDictionary, &result)
            if status == errSecItemNotFound { return nil }
            try Self.check(status)
            guard let data = result as? Data else { throw .malformedReply("the Keychain returned no data") }
            return data
        }

        func setSecret(_ secret: Data, for item: KeyringItem) throws(KeyringError) {
            let update = [kSecValueData as String: secret, kSecAttrLabel as String: item.label] as [String: Any]
            let status = SecItemUpdate(Self.query(item) as CFDictionary, update as CFDictionary)
            if status != errSecItemNotFound { return try Self.check(status) }
            var add = Self.query(item)
            add.merge(update) { $1 }
            try Self.check(SecItemAdd(add as CFDictionary, nil))
        }

        func removeSecret(for item: KeyringItem) throws(KeyringError) {
            let status = SecItemDelete(Self.query(item) as CFDictionary)
            if status == errSecItemNotFound { return }
            try Self.check(status)
        }

        func containsSecret(for item: KeyringItem) throws(KeyringError) -> Bool {
            var query = Self.query(item)
            query[kSecMatchLimit as String] = kSecMatchLimitOne
            let status = SecItemCopyMatching(query as CFDictionary, nil)
            if status == errSecItemNotFound { return false }
            try Self.check(status)
            return true
        }

        private static func check(_ status: OSStatus) throws(KeyringError) {
            switch status {
            case errSecSuccess: return
            case errSecInteractionNotAllowed: throw .locked
            case errSecNotAvailable: throw .serviceUnavailable("the Keychain is not available")
            default:
                let message = SecCopyErrorMessageString(status, nil) as String? ?? ""
                throw .refused("OSStatus \(status)", message)
            }
        }
    }
#endif
