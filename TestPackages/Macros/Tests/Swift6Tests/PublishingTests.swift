// A model published as a catalog, on its store's real suite: the schema file beside it lists its
// settings and its secrets, which tools learn of from it alone.
import Foundation
import Testing
import TypedDefaults
import TypedDefaultsMacros
import TypedDefaultsSchema

@Suite struct PublishingTests {
    @Test func aModelIsACatalogWhoseSecretsArePublishedInTheirStoresSchema() throws {
        let written = try DefaultsSchema.publish(AccountSettings())
        let probeSchema = try #require(DefaultsStore.macroProbe.fileURL).deletingPathExtension()
            .appendingPathExtension("schema.json")
        #expect(written.contains(probeSchema))
        let schema = try #require(try DefaultsStore.macroProbe.publishedSchema())
        #expect(schema["account.server"]?.isSecret == false)
        #expect(schema["account.apiToken"]?.isSecret == true)
        #expect(schema["legacyToken"] == nil, "a secret given its own service was published in the store's schema")
        let legacy = try DefaultsStore(suiteName: "typeddefaults-macro-legacy")
        #expect(try legacy.publishedSchema()?["legacyToken"]?.isSecret == true)
        #expect(AccountSettings().catalog.map(\.key).contains("account.server"))
    }
}
