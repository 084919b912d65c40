import Foundation
import TypedDefaults
import TypedDefaultsSchema

/// The errors the library handed to `DefaultsError.handler`, from any thread.
final class RoundTripErrors: @unchecked Sendable {  // `errors` is only touched under `lock`.
    private let lock = NSLock()
    private var errors: [DefaultsError] = []

    func append(_ error: DefaultsError) {
        lock.withLock { errors.append(error) }
    }

    /// Removes and returns the errors about `key`, compared scalar by scalar (`==` would take
    /// `"é"` for `"e\u{301}"`, two keys of a suite).
    func take(key: String) -> [DefaultsError] {
        func isAbout(_ error: DefaultsError) -> Bool {
            error.key.map { $0.unicodeScalars.elementsEqual(key.unicodeScalars) } ?? false
        }
        return lock.withLock {
            let taken = errors.filter(isAbout)
            errors.removeAll(where: isAbout)
            return taken
        }
    }

    /// Removes and returns every error left.
    func takeAll() -> [DefaultsError] {
        lock.withLock {
            defer { errors.removeAll() }
            return errors
        }
    }
}

/// What one process of the run works with.
final class RoundTripContext {
    let seed: UInt64
    let store: DefaultsStore
    let reported: RoundTripErrors
    private var stored: [DefaultsStoredKey: DefaultsStoredValue]?

    init(seed: UInt64, store: DefaultsStore, reported: RoundTripErrors) {
        (self.seed, self.store, self.reported) = (seed, store, reported)
    }

    /// What the suite holds under `key`, as JSON: to tell a value changed on its way to the
    /// file from one read back wrongly.
    func storedJSON(_ key: String) -> String {
        if stored == nil { stored = (try? store.storedValues()) ?? [:] }
        return stored?[DefaultsStoredKey(key)].map { $0.json() } ?? "nothing"
    }
}

/// One value of the run: how to write it, and how to check it in a fresh process.
struct RoundTripEntry {
    /// Returns the problems seen while writing.
    let write: (RoundTripContext) -> [String]
    /// Returns every difference between what was written and what is read.
    let verify: (RoundTripContext) -> [String]
}

/// A kind of value, drawn `count` times.
struct RoundTripFamily {
    let name: String
    let count: Int
    let entry: (_ draw: inout Draw, _ key: String) -> RoundTripEntry
}

/// Access through a typed key (`store[DefaultsKey(...)]`), which needs a `Sendable` value.
struct TypedKeyAccess<Value> {
    let write: (_ store: DefaultsStore, _ key: String, _ value: Value, _ defaultValue: Value) -> Void
    let read: (_ store: DefaultsStore, _ key: String, _ defaultValue: Value) -> Value
}

extension TypedKeyAccess where Value: DefaultsValueConvertible & Sendable {
    static var typed: TypedKeyAccess<Value> {
        TypedKeyAccess(
            write: { store, key, value, defaultValue in store[DefaultsKey<Value>(key, default: defaultValue)] = value },
            read: { store, key, defaultValue in store[DefaultsKey<Value>(key, default: defaultValue)] })
    }
}

enum RoundTripReport {
    /// `text`, cut to `limit` characters around where it first differs from `other`.
    static func shown(_ text: String, against other: String, limit: Int = 700) -> String {
        guard text.count > limit else { return text }
        let common = zip(text, other).prefix { $0 == $1 }.count
        let start = max(0, common - 100)
        let slice = text.dropFirst(start).prefix(limit)
        return "(\(text.count) characters, first difference at \(common)) " + (start > 0 ? "…" : "") + slice + "…"
    }

    static func mismatch(_ what: String, written: String, read: String, stored: String? = nil) -> String {
        var lines = [
            what, "  written: \(shown(written, against: read))", "  read:    \(shown(read, against: written))",
        ]
        if let stored { lines.append("  stored:  \(shown(stored, against: ""))") }
        return lines.joined(separator: "\n")
    }

    static func describe(_ errors: [DefaultsError]) -> String {
        errors.map { "\($0)" }.joined(separator: "; ")
    }
}

extension RoundTripFamily {
    /// Values of a `Sendable` type: written through `@UserDefault` or a typed key, read back
    /// through both.
    static func values<Value: RoundTripValue & Sendable>(_ name: String, _ type: Value.Type, count: Int) -> Self {
        values(name, count: count, generate: Value.generate, fingerprint: \.fingerprint, typedKey: .typed)
    }

    /// Values of a type that is not `Sendable` (secure-coding classes): through `@UserDefault` only.
    static func values<Value: RoundTripValue>(_ name: String, _ type: Value.Type, count: Int) -> Self {
        values(name, count: count, generate: Value.generate, fingerprint: \.fingerprint, typedKey: nil)
    }

    static func values<Value: DefaultsValueConvertible>(
        _ name: String, count: Int, generate: @escaping (inout Draw) -> Value,
        fingerprint: @escaping (Value) -> String, typedKey: TypedKeyAccess<Value>?
    ) -> Self {
        RoundTripFamily(name: name, count: count) { draw, key in
            let value = generate(&draw)
            let defaultValue = generate(&draw)
            let access = draw.chance(0.5) ? typedKey : nil
            // nil over a nil default removes the key, where nil over any other default stores a marker.
            let removes =
                (value as? RoundTripOptional)?.isNone == true && (defaultValue as? RoundTripOptional)?.isNone == true
            let written = fingerprint(value)
            return RoundTripEntry(
                write: { context in
                    if let access {
                        access.write(context.store, key, value, defaultValue)
                    } else {
                        UserDefault(wrappedValue: defaultValue, key, store: context.store).wrappedValue = value
                    }
                    let errors = context.reported.take(key: key)
                    return errors.isEmpty ? [] : ["the write was reported: \(RoundTripReport.describe(errors))"]
                },
                verify: { context in
                    let property = UserDefault(wrappedValue: defaultValue, key, store: context.store)
                    var problems: [String] = []
                    func check(_ read: Value, _ how: String) {
                        let readPrint = fingerprint(read)
                        guard readPrint != written else { return }
                        problems.append(
                            RoundTripReport.mismatch(
                                "\(how) differs", written: written, read: readPrint, stored: context.storedJSON(key)))
                    }
                    if removes {
                        if property.hasStoredValue { problems.append("nil over a nil default left a stored value") }
                    } else {
                        do {
                            check(try property.load(), "load()")
                        } catch {
                            problems.append(
                                "load() failed: \(error); written: \(written); stored: \(context.storedJSON(key))")
                        }
                    }
                    check(property.wrappedValue, "a plain read")
                    if let typedKey { check(typedKey.read(context.store, key, defaultValue), "a typed key's read") }
                    let errors = context.reported.take(key: key)
                    if !errors.isEmpty { problems.append("reading reported: \(RoundTripReport.describe(errors))") }
                    return problems
                })
        }
    }

    /// Values the library documents that it refuses: the write must be reported as
    /// `encodingFailed` and store nothing, so the valid value written before stays. When every
    /// value of the type is refused (`validIsRefusedToo`), nothing is written before, and nothing
    /// may be stored.
    static func refusals<Value: DefaultsValueConvertible>(
        _ name: String, count: Int, generate: @escaping (inout Draw) -> (valid: Value, refused: Value),
        fingerprint: @escaping (Value) -> String, validIsRefusedToo: Bool = false
    ) -> Self {
        RoundTripFamily(name: name, count: count) { draw, key in
            let (valid, refused) = generate(&draw)
            let expected = fingerprint(valid)
            return RoundTripEntry(
                write: { context in
                    let property = UserDefault(wrappedValue: valid, key, store: context.store)
                    if !validIsRefusedToo { property.wrappedValue = valid }
                    var problems = context.reported.take(key: key).map { "the valid value's write was reported: \($0)" }
                    property.wrappedValue = refused
                    let errors = context.reported.take(key: key)
                    let refusals = errors.filter { if case .encodingFailed = $0 { true } else { false } }
                    if refusals.count != 1 || errors.count != 1 {
                        problems.append(
                            "writing \(fingerprint(refused)) should report one encodingFailed, reported: "
                                + (errors.isEmpty ? "nothing" : RoundTripReport.describe(errors)))
                    }
                    let after = fingerprint(property.wrappedValue)
                    if after != expected {
                        problems.append(
                            RoundTripReport.mismatch(
                                "a refused write changed the value", written: expected, read: after))
                    }
                    return problems
                },
                verify: { context in
                    let property = UserDefault(wrappedValue: valid, key, store: context.store)
                    if validIsRefusedToo {
                        return property.hasStoredValue ? ["a refused value was stored: \(context.storedJSON(key))"] : []
                    }
                    do {
                        let read = fingerprint(try property.load())
                        guard read != expected else { return [] }
                        return [
                            RoundTripReport.mismatch(
                                "after a refused write of \(fingerprint(refused))", written: expected, read: read,
                                stored: context.storedJSON(key))
                        ]
                    } catch {
                        return ["after a refused write, load() failed: \(error)"]
                    }
                })
        }
    }
}
