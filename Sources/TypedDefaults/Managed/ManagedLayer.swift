import Foundation

/// What an administrator set for a suite: defaults, locks and bounds, each with the file (or
/// the label) it came from. Immutable: a change of the administrator's files makes a new one.
struct ManagedLayer: Sendable {
    /// The administrator's default of each key, and where it was set.
    var defaults: [DefaultsStoredKey: (object: StoredObject, source: String)] = [:]
    /// Keys locked one by one, and the file that locks each.
    var locks: [DefaultsStoredKey: String] = [:]
    /// Keys locked by what they begin with (`net.*`), the most important first.
    var prefixLocks: [(prefix: String, source: String)] = []
    /// The narrowed values of each key, and where they were set.
    var bounds: [DefaultsStoredKey: (bound: ManagedBound, source: String)] = [:]
    /// A locks or bounds file that exists and could not be read: every key of the suite is
    /// locked by it until it can be (see the article "Managed settings").
    var lockingEverything: String?
    /// A platform's own answer for a key, asked first: Apple's forced keys, which cannot be listed.
    var perKey: (@Sendable (DefaultsStoredKey) -> ManagedEntry?)?

    var isEmpty: Bool {
        defaults.isEmpty && locks.isEmpty && prefixLocks.isEmpty && bounds.isEmpty && lockingEverything == nil
            && perKey == nil
    }

    /// What applies to `key`; `nil` when nothing does, which is the rule.
    func entry(for key: DefaultsStoredKey) -> ManagedEntry? {
        if let perKey, let entry = perKey(key) { return entry }
        let lockedBy =
            lockingEverything ?? locks[key] ?? prefixLocks.first { Self.key(key, startsWith: $0.prefix) }?.source
        let (found, bounded) = (defaults[key], bounds[key])
        guard lockedBy != nil || found != nil || bounded != nil else { return nil }
        return ManagedEntry(
            lockedBy: lockedBy, administratorDefault: found?.object, defaultSource: found?.source,
            bound: bounded?.bound, boundSource: bounded?.source)
    }

    /// Scalar for scalar, as keys compare: Swift's `hasPrefix` would take `é` for `e` and an accent.
    private static func key(_ key: DefaultsStoredKey, startsWith prefix: String) -> Bool {
        key.name.utf8.starts(with: prefix.utf8)
    }
}

/// An administrator's narrowing of a key's values, without fixing the value.
enum ManagedBound: Sendable {
    /// A number at least `minimum` and at most `maximum`, where given.
    case range(minimum: Double?, maximum: Double?)
    /// One of these values, compared as stored.
    case allowed([StoredObject])

    /// The bound in words, for an error: "1 to 50", "one of \"stable\", \"beta\"".
    var description: String {
        switch self {
        case .range(let minimum?, let maximum?): "\(Self.text(minimum)) to \(Self.text(maximum))"
        case .range(let minimum?, nil): "at least \(Self.text(minimum))"
        case .range(nil, let maximum?): "at most \(Self.text(maximum))"
        case .range(nil, nil): "any number"
        case .allowed(let values):
            "one of "
                + values.map { ($0.object as? String).map { "\"\($0)\"" } ?? ValueDescription.describe($0.object) }
                .joined(separator: ", ")
        }
    }

    private static func text(_ number: Double) -> String {
        number == number.rounded() && abs(number) < 1e15 ? String(Int64(number)) : String(number)
    }

    /// Whether `object` is inside the bound. An object a range cannot judge (not a number) is:
    /// its read is the type's to refuse.
    func admits(_ object: StoredObject) -> Bool {
        switch self {
        case .range(let minimum, let maximum):
            guard let number = Self.real(object) else { return true }
            if number.isNaN { return false }
            return (minimum.map { number >= $0 } ?? true) && (maximum.map { number <= $0 } ?? true)
        case .allowed(let values):
            return values.contains { StoredObject.same($0.object, object.object) }
        }
    }

    /// `object` moved to the nearest value inside a range, keeping its kind of number; `nil`
    /// for a value outside a list (the next layer down is read then).
    func clamped(_ object: StoredObject) -> StoredObject? {
        if admits(object) { return object }
        guard case .range(let minimum, let maximum) = self, let number = StoredObject.number(object.object) else {
            return nil
        }
        let target: Double
        switch number {
        case .bool: return object
        case .signed(let value): target = Self.nearest(Double(value), minimum, maximum)
        case .unsigned(let value): target = Self.nearest(Double(value), minimum, maximum)
        case .floating(let value):
            return StoredObject(value.isNaN ? (minimum ?? maximum ?? 0) : Self.nearest(value, minimum, maximum))
        }
        // An integer stays one: the bound rounded inwards, so the value stays inside it.
        let inwards = target == minimum ? target.rounded(.up) : target.rounded(.down)
        guard let integer = Int(exactly: inwards) else { return nil }
        return StoredObject(integer)
    }

    private static func nearest(_ value: Double, _ minimum: Double?, _ maximum: Double?) -> Double {
        if let minimum, value < minimum { return minimum }
        if let maximum, value > maximum { return maximum }
        return value
    }

    private static func real(_ object: StoredObject) -> Double? {
        switch StoredObject.number(object.object) {
        case .signed(let value): Double(value)
        case .unsigned(let value): Double(value)
        case .floating(let value): value
        case .bool, nil: nil
        }
    }
}

/// What the administrator's layer holds for one key: kept in the key's slot, so a read finds it
/// without a lookup. A slot with no entry (`nil`) is read as it always was. A class, so that a
/// slot holds one word, and a write checks it with one comparison and copies nothing.
final class ManagedEntry: Sendable {
    /// The file that locks the key, if one does.
    let lockedBy: String?
    /// The administrator's value: the default under the user's, or the value a lock fixes.
    let administratorDefault: StoredObject?
    let defaultSource: String?
    let bound: ManagedBound?
    let boundSource: String?

    init(
        lockedBy: String?, administratorDefault: StoredObject?, defaultSource: String?, bound: ManagedBound? = nil,
        boundSource: String? = nil
    ) {
        self.lockedBy = lockedBy
        self.administratorDefault = administratorDefault
        self.defaultSource = defaultSource
        self.bound = bound
        self.boundSource = boundSource
    }

    /// The object a read decodes, `user` being the user's own: `nil` reads the code's default.
    func inForce(_ user: StoredObject?) -> StoredObject? {
        if lockedBy != nil { return administratorDefault }
        guard let bound else { return user ?? administratorDefault }
        if let user, let clamped = bound.clamped(user) { return clamped }
        return administratorDefault.flatMap(bound.clamped)
    }

    /// Why writing `object` (`nil`: removing the user's value) under `key` is refused, if it is.
    func refusal(of object: StoredObject?, key: String) -> DefaultsError? {
        if let lockedBy { return .locked(key: key, path: lockedBy) }
        if let object, let bound, let boundSource, !bound.admits(object) {
            return .outsideAdministratorBounds(key: key, path: boundSource, bounds: bound.description)
        }
        return nil
    }

    /// Where the value a read gives comes from, `user` being the user's own object.
    func source(user: StoredObject?) -> DefaultsValueSource {
        if let lockedBy { return .locked(by: lockedBy) }
        // The user's value shows, moved inside a range where it must be; outside a list it does not.
        if let user, bound.map({ $0.clamped(user) != nil }) ?? true { return .user }
        if let defaultSource, administratorDefault != nil { return .administratorDefault(from: defaultSource) }
        return .codeDefault
    }

    /// Whether two entries read and refuse alike.
    static func same(_ first: ManagedEntry?, _ second: ManagedEntry?) -> Bool {
        guard let first, let second else { return first == nil && second == nil }
        return first.lockedBy == second.lockedBy && first.defaultSource == second.defaultSource
            && StoredObject.same(first.administratorDefault, second.administratorDefault)
            && first.boundSource == second.boundSource && first.bound?.description == second.bound?.description
    }
}
