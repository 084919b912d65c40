import Foundation

/// One step of a suite's migrations: what a release changes in what earlier releases stored.
///
/// Declare the steps in a list that only ever grows, and run it at launch with
/// ``DefaultsStore/migrate(_:)``. Version N is the N-th step: a suite records the version it
/// reached, so each step runs once per suite, and a later release appends steps.
///
/// ```swift
/// try store.migrate([
///     .renameKey("userName", to: "displayName"),                                           // version 1
///     .convert("theme", from: Int.self, to: Theme.self) { $0 == 1 ? Theme.dark : .light },  // version 2
///     .dropKey("legacyFlag"),                                                                // version 3
/// ])
/// ```
///
/// A step sees the suite as it is on disk, under the suite's cross-process lock, and its
/// changes are written together, in one replacement of the file, only once the whole step has
/// succeeded. A key the step does not find is left alone: a step never fails for a value that
/// was never stored.
public struct DefaultsMigration: Sendable {
    /// What the step does, as a report shows it: `rename "userName" to "displayName"`.
    public let summary: String
    let apply: @Sendable (inout MigrationWork) throws -> Void

    init(_ summary: String, _ apply: @escaping @Sendable (inout MigrationWork) throws -> Void) {
        self.summary = summary
        self.apply = apply
    }
}

extension DefaultsMigration {
    /// Stores the value of `key` under `newKey`, unchanged, and removes `key`.
    ///
    /// When `newKey` already holds a value (written by a release that knew the new name before
    /// this step ran), that value is the newer one: it stays, and `key` is removed.
    ///
    /// - Parameters:
    ///   - key: the name the value is stored under now.
    ///   - newKey: the name to store it under; a value already stored there wins.
    public static func renameKey(_ key: String, to newKey: String) -> DefaultsMigration {
        DefaultsMigration("rename \"\(key)\" to \"\(newKey)\"") { work in
            // Compared as stored keys: "caf\u{E9}" renamed to "cafe\u{301}" is a rename.
            guard DefaultsStoredKey(key) != DefaultsStoredKey(newKey), let object = work[key] else { return }
            if work[newKey] == nil { work[newKey] = object }
            work[key] = nil
        }
    }

    /// Removes `key` and its value.
    public static func dropKey(_ key: String) -> DefaultsMigration {
        DefaultsMigration("drop \"\(key)\"") { work in
            if work[key] != nil { work[key] = nil }
        }
    }

    /// Moves the value of `key` to another suite, under `newKey` (the same name by default).
    ///
    /// Two files change, so this is two commits: the value is first stored in `store` (which
    /// keeps a value it already holds under `newKey`), then removed here. A crash between them
    /// leaves the value in both suites, never in neither, and the step runs again at the next
    /// launch.
    ///
    /// - Parameters:
    ///   - key: the name of the value to move, in the suite being migrated.
    ///   - store: the store of the suite the value moves to.
    ///   - newKey: the name to store it under there; `key` unless given. A value already there is kept.
    public static func moveKey(_ key: String, to store: DefaultsStore, as newKey: String? = nil) -> DefaultsMigration {
        let destination = newKey ?? key
        return DefaultsMigration("move \"\(key)\" to \"\(destination)\" in \(store.state.location)") { work in
            guard let object = work[key] else { return }
            work.moves.append(MigrationWork.Move(store: store, key: destination, object: object))
            work[key] = nil
        }
    }

    /// Converts the value of `key` from `Old` to `New`: `Int` to an enum, `String` to `URL`,
    /// `[String]` to `Set<Tag>`.
    ///
    /// ```swift
    /// .convert("tags", from: [String].self, to: Set<Tag>.self) { Set($0.compactMap(Tag.init)) }
    /// ```
    ///
    /// A stored value that reads as `New` but not as `Old` was converted already (a release
    /// wrote the new type before this step ran) and is kept. One that reads as neither, or a
    /// conversion that throws, fails the step.
    ///
    /// - Parameters:
    ///   - key: the name of the value to convert.
    ///   - old: the type the value was stored as.
    ///   - new: the type to store it as.
    ///   - conversion: makes the new value from the old one; an error it throws fails the step.
    public static func convert<Old: DefaultsValueConvertible & Sendable, New: DefaultsValueConvertible & Sendable>(
        _ key: String, from old: Old.Type, to new: New.Type, _ conversion: @escaping @Sendable (Old) throws -> New
    ) -> DefaultsMigration {
        DefaultsMigration("convert \"\(key)\" from \(Old.self) to \(New.self)") { work in
            guard let object = work[key] else { return }
            switch Conversion.decode(object, as: Old.self, key: key) {
            case .success(let value):
                work[key] = try Conversion.encode(try conversion(value), key: key).get()
            case .failure(let error):
                if case .success = Conversion.decode(object, as: New.self, key: key) { return }
                throw error
            }
        }
    }

    /// Decodes the JSON stored under `key` with an old `Codable` shape, and stores the value
    /// `conversion` builds from it: a field renamed, split or dropped.
    ///
    /// ```swift
    /// struct LayoutV1: Decodable { var size: Int }
    /// .evolve("layout", from: LayoutV1.self, to: Layout.self) { Layout(width: $0.size, height: $0.size) }
    /// ```
    ///
    /// The JSON may be a string (as TypedDefaults and sindresorhus/Defaults store `Codable`
    /// values) or `Data` (as SwiftyUserDefaults does). A value that reads as `New` already is
    /// kept; one that is no JSON of the old shape fails the step.
    ///
    /// - Parameters:
    ///   - key: the name the JSON is stored under.
    ///   - old: the old `Codable` shape, which the stored JSON is decoded as.
    ///   - new: the type to store.
    ///   - conversion: builds the new value from the decoded old one; an error it throws fails the step.
    public static func evolve<Old: Decodable & Sendable, New: DefaultsValueConvertible & Sendable>(
        _ key: String, from old: Old.Type, to new: New.Type, _ conversion: @escaping @Sendable (Old) throws -> New
    ) -> DefaultsMigration {
        DefaultsMigration("evolve \"\(key)\" from \(Old.self) to \(New.self)") { work in
            guard let object = work[key] else { return }
            let decoded: Old
            do {
                decoded = try JSONDecoder().decode(Old.self, from: try MigrationWork.json(in: object))
            } catch {
                if case .success = Conversion.decode(object, as: New.self, key: key) { return }
                throw DefaultsError.reading(key, error)
            }
            work[key] = try Conversion.encode(try conversion(decoded), key: key).get()
        }
    }

    /// Reads the JSON another library stored under `key` (a string or `Data`) as `Value`, and
    /// stores it as TypedDefaults stores `Value`.
    ///
    /// ```swift
    /// .decodeJSON("theme", as: Theme.self)     // sindresorhus/Defaults: "\"dark\"" becomes "dark"
    /// .decodeJSON("layout", as: Layout.self)   // SwiftyUserDefaults: JSON Data becomes a JSON string
    /// ```
    ///
    /// - Parameters:
    ///   - key: the name the JSON is stored under.
    ///   - type: the type to decode the JSON as, and to store.
    public static func decodeJSON<Value: Decodable & DefaultsValueConvertible & Sendable>(
        _ key: String, as type: Value.Type
    ) -> DefaultsMigration {
        let step = evolve(key, from: Value.self, to: Value.self) { $0 }
        return DefaultsMigration("decode the JSON of \"\(key)\" as \(Value.self)", step.apply)
    }

    /// A step of your own, with the stored values of the whole suite to read and change, as
    /// ``DefaultsStore/editStoredValues(_:)`` has them.
    ///
    /// ```swift
    /// .editStoredValues("split the window frame") { values in
    ///     guard case .array(let frame) = values["frame"], frame.count == 4 else { return }
    ///     values["origin"] = ["x": frame[0], "y": frame[1]]
    ///     values["size"] = ["width": frame[2], "height": frame[3]]
    ///     values["frame"] = nil
    /// }
    /// ```
    ///
    /// Each key whose value the body changed is stored, and each key it removed is removed.
    ///
    /// - Parameters:
    ///   - summary: what the step does, as a dry run (`DefaultsMigrationReport`) and
    ///     ``DefaultsError/migrationFailed(version:step:underlying:)`` name it.
    ///   - body: reads and changes the stored values of the suite; an error it throws fails the
    ///     step, and nothing it changed is stored.
    public static func editStoredValues(
        _ summary: String, _ body: @escaping @Sendable (inout [DefaultsStoredKey: DefaultsStoredValue]) throws -> Void
    ) -> DefaultsMigration {
        DefaultsMigration(summary) { work in
            var before: [DefaultsStoredKey: StoredObject] = [:]
            for key in work.keys { before[key] = work[stored: key] }
            var values = try DefaultsStoredValue.values(of: before)
            try body(&values)
            for key in Set(before.keys).union(values.keys) {
                let after = try values[key].map { value throws(DefaultsError) in
                    try Conversion.encode(value, key: key.name).get()
                }
                if !StoredObject.same(before[key], after) { work[stored: key] = after }
            }
        }
    }
}

extension DefaultsMigration {
    /// A step that removes the text stored under `key` once `keep` stored it elsewhere (the
    /// keyring): what moving a secret out of the suite takes. A dry run neither calls `keep`
    /// nor shows the text; a value that is not text throws `notText()`, which must not say it.
    package static func movingText(
        _ key: String, summary: String, keep: @escaping @Sendable (String) throws -> Void,
        notText: @escaping @Sendable () -> any Error
    ) -> DefaultsMigration {
        DefaultsMigration(summary) { work in
            let storedKey = DefaultsStoredKey(key)
            guard let object = work[stored: storedKey] else { return }
            work.secretKeys.insert(storedKey)
            guard let text = object.object as? String else { throw notText() }
            if !work.isPreview { try keep(text) }
            work[stored: storedKey] = nil
        }
    }
}
