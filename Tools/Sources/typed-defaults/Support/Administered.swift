import TypedDefaults

/// What an administrator set for a key (see the article "Managed settings"), as the tool shows
/// it, and the refusal of a command that would change a locked key.
enum Administered {
    /// Refuses a command naming a locked key even when it would change nothing stored (a reset
    /// of a key the user never set): the store refuses only edits that change something, and
    /// the person at the shell must hear that the key is not theirs to change.
    static func refuseLocked(_ keys: [String], in store: DefaultsStore) throws {
        do {
            try requireReadable(store)
        } catch let error as ToolError where !error.description.contains("nothing was written") {
            throw ToolError("\(error); nothing was written")
        }
        for key in keys {
            if let file = store.administration(ofKey: key).lockedBy {
                throw ToolError(DefaultsError.locked(key: key, path: file))
            }
        }
    }

    /// Throws, leaving the file as it is, when the suite's file cannot be read: asking the
    /// store about a key loads the suite as a program's read does, which moves a file that
    /// does not parse aside, and the tool never moves a user's file.
    static func requireReadable(_ store: DefaultsStore) throws {
        _ = try Suites.values(of: store)
    }

    /// A key as a program reads it: the value in force, as far as the tool can tell, and where
    /// it came from.
    struct Shown {
        let administration: DefaultsKeyAdministration
        /// The user's own stored value, kept under a lock.
        let user: DefaultsStoredValue?
        /// The value in force: the administrator's, the user's, or the schema's default.
        let value: DefaultsStoredValue?
        /// The value is the schema's default.
        var isDefault = false
        /// A lock fixes the program's own default, which only the program knows (no
        /// administrator's value, no schema): ``value`` is the user's, which it does not read.
        var isUserValueHeld = false

        /// Whether an administrator set anything for the key.
        var isAdministered: Bool {
            administration.lockedBy != nil || administration.administratorDefault != nil
                || administration.bounds != nil
        }
    }

    /// The key named `key` as its program reads it, `user` being what the suite stores and
    /// `declaredDefault` the schema's default. A bound moves a value outside it to the nearest
    /// inside when the program reads it; the tool shows the value as stored, and the bound.
    /// Only once the suite's values were read (see ``requireReadable(_:)``).
    static func shown(
        _ key: String, in store: DefaultsStore, user: DefaultsStoredValue?, declaredDefault: DefaultsStoredValue?
    ) -> Shown {
        let administration = store.administration(ofKey: key)
        switch administration.source {
        case .locked:
            if let value = administration.administratorDefault {
                return Shown(administration: administration, user: user, value: value)
            }
            if let declaredDefault {
                return Shown(administration: administration, user: user, value: declaredDefault, isDefault: true)
            }
            return Shown(administration: administration, user: user, value: user, isUserValueHeld: user != nil)
        case .administratorDefault:
            return Shown(administration: administration, user: user, value: administration.administratorDefault)
        case .user:
            return Shown(administration: administration, user: user, value: user)
        default:
            guard user == nil, let declaredDefault else {
                return Shown(administration: administration, user: user, value: user)
            }
            return Shown(administration: administration, user: user, value: declaredDefault, isDefault: true)
        }
    }

    /// The comment `read` puts after a key's line: where its value came from, and its bounds;
    /// `nil` for a value of the user's no administrator narrowed.
    static func note(_ shown: Shown) -> String? {
        let administration = shown.administration
        var parts: [String] = []
        if let file = administration.lockedBy {
            if shown.isUserValueHeld {
                parts.append("yours, but locked by \(file): the program reads its own default")
            } else {
                parts.append("locked by \(file)" + (shown.isDefault ? ", the default" : ""))
                if shown.user != nil { parts.append("your value is kept") }
            }
        } else if case .administratorDefault(let file) = administration.source {
            parts.append("the administrator's default, from \(file)")
        } else if shown.isDefault {
            parts.append("default")
        }
        if let bounds = administration.bounds, let file = administration.boundsSource {
            parts.append("must be \(bounds), as \(file) sets")
        }
        return parts.isEmpty ? nil : parts.joined(separator: "; ")
    }

    /// The lines `describe` and `read --source` print after the value: its source, the user's
    /// value a lock holds back, the administrator's default and bounds, each with its file.
    static func lines(_ shown: Shown) -> [String] {
        let administration = shown.administration
        var lines = ["source: \(administration.source)"]
        if administration.lockedBy != nil, let user = shown.user {
            lines.append("your value: \(ValueDisplay.line(user)), kept for when the lock goes")
        }
        if let value = administration.administratorDefault, let file = administration.administratorDefaultSource {
            lines.append("administrator's default: \(ValueDisplay.line(value)), from \(file)")
        }
        if let bounds = administration.bounds, let file = administration.boundsSource {
            lines.append("bounds: \(bounds), from \(file)")
        }
        return lines
    }

    /// The key's JSON object for `read --json --source`: `source` (`locked`, `user`,
    /// `administratorDefault`, `codeDefault`), the files, the values as stored and the bounds.
    static func json(_ shown: Shown) -> DefaultsStoredValue {
        let administration = shown.administration
        var fields: [DefaultsStoredKey: DefaultsStoredValue] = ["source": .string(name(of: administration.source))]
        if let file = administration.lockedBy { fields["lockedBy"] = .string(file) }
        if let value = shown.value, !shown.isUserValueHeld { fields["value"] = value }
        if let user = shown.user { fields["userValue"] = user }
        if let value = administration.administratorDefault, let file = administration.administratorDefaultSource {
            fields["administratorDefault"] = value
            fields["administratorDefaultSource"] = .string(file)
        }
        if let bounds = administration.bounds, let file = administration.boundsSource {
            fields["bounds"] = .string(bounds)
            fields["boundsSource"] = .string(file)
        }
        return .dictionary(fields)
    }

    /// One word for a source, for scripts: a source a later library adds is its description.
    static func name(of source: DefaultsValueSource) -> String {
        switch source {
        case .locked: "locked"
        case .user: "user"
        case .administratorDefault: "administratorDefault"
        case .codeDefault: "codeDefault"
        @unknown default: source.description
        }
    }
}
