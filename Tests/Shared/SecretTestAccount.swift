import TypedDefaults
import TypedDefaultsSecrets

/// A program's settings with a secret, published as its schema: `server` in the suite,
/// `apiToken` in `keyring`, filed under the suite's name. (The page's tests use it too.)
struct SecretTestAccount: SettingsCatalog {
    @Setting var server: String
    @Secret var apiToken: String?

    init(suite: String, store: DefaultsStore, keyring: any Keyring) {
        _server = Setting(wrappedValue: "example.com", "server", title: "Server", store: store)
        _apiToken = Secret("apiToken", service: suite, keyring: keyring, title: "API token")
    }
}
