import Foundation
import TypedDefaults
import TypedDefaultsSchema

/// Opening suites by name, and reading them, with errors for a person at a shell.
enum Suites {
    /// The store of the suite named `name`; every write through it is committed at once.
    static func store(_ name: String) throws -> DefaultsStore {
        do {
            return try DefaultsStore(suiteName: name, durability: .immediate)
        } catch {
            throw ToolError(error)
        }
    }

    /// The store of a suite that exists: it has a file, or a published schema.
    static func existing(_ name: String) throws -> DefaultsStore {
        let store = try store(name)
        guard exists(store) else {
            throw ToolError("suite \(name) does not exist: no \(name).plist in \(DefaultsStore.preferencesFolder.path)")
        }
        return store
    }

    static func exists(_ store: DefaultsStore) -> Bool {
        guard let file = store.fileURL else { return true }
        let schema = file.deletingPathExtension().appendingPathExtension("schema.json")
        return FileManager.default.fileExists(atPath: file.path) || FileManager.default.fileExists(atPath: schema.path)
    }

    /// Every stored key and value; a suite that cannot be read is an error, left as it is.
    static func values(of store: DefaultsStore) throws -> [DefaultsStoredKey: DefaultsStoredValue] {
        do {
            return try store.storedValues()
        } catch {
            throw ToolError(error)
        }
    }

    /// The schema the suite's program published, if any.
    static func schema(of store: DefaultsStore) throws -> DefaultsSchema? {
        do {
            return try store.publishedSchema()
        } catch {
            throw ToolError(error)
        }
    }

    /// The schema, which the command needs.
    static func requiredSchema(of store: DefaultsStore, _ name: String) throws -> DefaultsSchema {
        guard let schema = try schema(of: store) else {
            throw ToolError("no schema is published for \(name); its program publishes one with DefaultsSchema.publish")
        }
        return schema
    }

    /// The names of the suites in the preferences folder, sorted.
    static func names() -> [String] {
        let folder = DefaultsStore.preferencesFolder
        let files = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        let suites = files.compactMap { file -> String? in
            guard file.hasSuffix(".plist"), !file.hasPrefix(".") else { return nil }
            return String(file.dropLast(".plist".count))
        }
        let schemas = files.compactMap { file -> String? in
            file.hasSuffix(".schema.json") ? String(file.dropLast(".schema.json".count)) : nil
        }
        return Set(suites + schemas).sorted()
    }

    /// Runs `body` for each suite; a suite it fails for is reported on standard error and the
    /// rest still run. Returns whether every suite succeeded.
    static func forEach(_ names: [String], _ body: (String) throws -> Void) -> Bool {
        var succeeded = true
        for name in names {
            do {
                try body(name)
            } catch {
                Output.error("typed-defaults: \(error)")
                succeeded = false
            }
        }
        return succeeded
    }

    /// Runs an edit of the suite, turning the library's errors into the tool's.
    static func edit<Result>(
        _ store: DefaultsStore, _ body: (inout [DefaultsStoredKey: DefaultsStoredValue]) throws -> Result
    ) throws -> Result {
        do {
            return try store.editStoredValues(body)
        } catch let error as DefaultsError {
            throw ToolError(error)
        }
    }
}
