import Foundation
import TypedDefaults

extension DefaultsSchema {
    /// Publishes the schema of every `Setting` in `catalog` and of `keys`, beside the suite
    /// each lives in: one call at launch keeps the schemas as current as the program.
    ///
    /// ```swift
    /// extension DefaultsKeys {
    ///     static let launchCount = DefaultsKey<Int>("launchCount", default: 0)
    /// }
    /// try DefaultsSchema.publish(AppSettings(), keys: [.launchCount])
    /// ```
    ///
    /// A suite's schema lists what this call declares for it and nothing else: publish each
    /// suite's keys in one call. A key declared twice is listed once, first declaration first.
    /// The file, `<suite>.schema.json` beside `<suite>.plist`, is replaced atomically and only
    /// when it would change. A store with no file (in memory, or on Apple platforms, where
    /// `UserDefaults` keeps the suite) has nothing to publish beside, and is skipped.
    ///
    /// - Parameters:
    ///   - catalog: the settings to publish: every `Setting` and `UserDefault` stored in it, as
    ///     `SettingsCatalog.catalog` lists them.
    ///   - keys: typed keys to publish besides, each beside its own store's suite; a key declared
    ///     without a store, beside the catalog's when all its settings share one (a model's
    ///     `store:`), else beside the standard suite. None unless given.
    /// - Returns: The files written or found current.
    /// - Throws: `DefaultsError.writeFailed(path:underlying:)`; schemas of other suites may
    ///   have been written before it.
    @discardableResult
    public static func publish(_ catalog: some SettingsCatalog, keys: [DefaultsKeys] = []) throws(DefaultsError)
        -> [URL]
    {
        let settings = SettingsCatalogListing.schemaDeclarations(in: Mirror(reflecting: catalog))
        // A key that names no store lives where the catalog's settings do, when they share one.
        let stores = Set(settings.map(\.store.suiteIdentity))
        let fallback = stores.count == 1 ? settings[0].store : .standard
        return try publish(settings + keys.compactMap { $0.schemaDeclaration(storedIn: fallback) })
    }

    /// Publishes the schema of `keys`, beside the suite each lives in (the key's store, or the
    /// standard suite), as ``publish(_:keys:)`` does for a catalog.
    ///
    /// ```swift
    /// try DefaultsSchema.publish(keys: [.launchCount, .theme])
    /// ```
    @discardableResult
    public static func publish(keys: [DefaultsKeys]) throws(DefaultsError) -> [URL] {
        try publish(keys.compactMap { $0.schemaDeclaration(storedIn: .standard) })
    }

    private static func publish(_ declarations: [any SchemaDeclaration]) throws(DefaultsError) -> [URL] {
        var order: [ObjectIdentifier] = []
        var suites: [ObjectIdentifier: (store: DefaultsStore, keys: [Key])] = [:]
        for declaration in declarations {
            let (key, store) = (Key(declaration), declaration.store)
            let id = store.suiteIdentity
            if suites[id] == nil {
                order.append(id)
                suites[id] = (store, [])
            }
            let name = DefaultsStoredKey(key.name)
            guard suites[id]?.keys.contains(where: { DefaultsStoredKey($0.name) == name }) == false else { continue }
            suites[id]?.keys.append(key)
        }
        var written: [URL] = []
        for id in order {
            guard let (store, keys) = suites[id], let file = store.schemaFileURL, let suite = store.suiteName else {
                continue
            }
            try SchemaFile.write(DefaultsSchema(suite: suite, keys: keys), to: file)
            written.append(file)
        }
        return written
    }
}

extension DefaultsStore {
    /// The schema a program published for this suite (see ``DefaultsSchema/publish(_:keys:)``),
    /// or `nil` when none was.
    ///
    /// ```swift
    /// if let schema = try store.publishedSchema(), let fontSize = schema["fontSize"] {
    ///     print(fontSize.title, fontSize.valueType)
    /// }
    /// ```
    ///
    /// - Throws: `DefaultsError.unparsableFile(path:underlying:)` for a file that is not a
    ///   schema of a version this library reads, `DefaultsError.readFailed(path:underlying:)`.
    public func publishedSchema() throws(DefaultsError) -> DefaultsSchema? {
        guard let file = schemaFileURL else { return nil }
        return try SchemaFile.read(file)
    }

    /// Where the suite's schema is published: `<suite>.schema.json` beside `<suite>.plist`.
    var schemaFileURL: URL? {
        fileURL.map { $0.deletingPathExtension().appendingPathExtension("schema.json") }
    }

    /// The suite's name, where the store manages its file: what its schema, the page and the
    /// keyring items of its secrets are named by.
    package var suiteName: String? {
        fileURL.map { $0.deletingPathExtension().lastPathComponent }
    }
}

extension DefaultsSchema.Key {
    /// The entry of what a program declared of one key.
    init<Declaration: SchemaDeclaration>(_ declaration: Declaration) {
        typealias Value = Declaration.Value
        let (name, defaultValue, formattedDefaultValue, title, info, range, options) = (
            declaration.name, declaration.defaultValue, declaration.formattedDefaultValue, declaration.title,
            declaration.info, declaration.range, declaration.options
        )
        guard !declaration.isSecret else {
            // The keyring's text, with no default: nothing of it is published.
            self.init(
                name: name, swiftType: "String", valueType: .string, title: title, info: info, defaultValue: nil,
                formattedDefaultValue: "none", isSecret: true)
            return
        }
        func stored(_ value: Value) -> DefaultsStoredValue? { DefaultsStoredValue(storing: value, key: name) }
        let storedDefault = defaultValue.flatMap(stored)
        let valueType = SchemaValueType.of(Value.self, sample: storedDefault)
        // An archive's bytes differ each time it is made: listed, it would change the file at
        // every launch. Its formatted default says what it is.
        let isArchive = if case .keyedArchive = valueType { true } else { false }
        // A Codable value's members, as its default shows them.
        var jsonShape: DefaultsSchema.JSONShape?
        if valueType == .json || valueType == .optional(.json), case .string(let text)? = storedDefault,
            let defaultValue
        {
            jsonShape = DefaultsSchema.JSONShape(json: text, of: defaultValue)
        }
        self.init(
            name: name, swiftType: String(describing: Value.self), valueType: valueType, title: title, info: info,
            defaultValue: isArchive ? nil : storedDefault,
            formattedDefaultValue: defaultValue == nil ? "computed on each read" : formattedDefaultValue,
            range: range.flatMap { range in
                guard let min = stored(range.min), let max = stored(range.max), let step = stored(range.step) else {
                    return nil
                }
                return DefaultsSchema.Range(min: min, max: max, step: step)
            },
            // An option that cannot be stored cannot be written either: it is left out.
            options: options.map { options in
                options.compactMap { option in
                    stored(option.value).map { DefaultsSchema.Option(value: $0, title: option.title) }
                }
            }, jsonShape: jsonShape)
    }
}
