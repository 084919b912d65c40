/// The namespace of typed keys. Extend it, from any module, with a `static let` per key:
///
/// ```swift
/// extension DefaultsKeys {
///     static let preferredName = DefaultsKey<String>("preferredName", default: "Bobbie Wasabi")
///     static let launchCount = DefaultsKey<Int>("launchCount", default: 0)
///     static let myTeam = DefaultsKey<NFLTeam?>("myNFLTeam")
/// }
///
/// @UserDefault(.preferredName) var preferredName
/// store[.launchCount] += 1
/// let team = store[.myTeam]
/// ```
///
/// ``DefaultsKey`` is a subclass, so wherever a `DefaultsKey<Value>` is expected a leading dot
/// finds the statics declared here, and `Value` is inferred from the key. A `DefaultsKeys` value
/// is a key of any value type, for collections of keys of different types:
///
/// ```swift
/// let appearance: Set<DefaultsKeys> = [.theme, .fontSize]
/// store.reset(appearance)
/// ```
///
/// Keys are equal when they have the same name and the same store (``DefaultsKey/store``).
// @unchecked Sendable is sound: its one stored property is a `let` of a Sendable type.
public class DefaultsKeys: Hashable, @unchecked Sendable {
    /// The name the value is stored under: also of a key held as a `DefaultsKeys`, so that a set
    /// of keys of different types can list theirs.
    ///
    /// ```swift
    /// let appearance: [DefaultsKeys] = [.theme, .fontSize]
    /// print(appearance.map(\.name))   // ["theme", "fontSize"]
    /// ```
    public let name: String

    init(name: String) {
        self.name = name
    }
    /// The store the key carries, if any.
    var keyStore: DefaultsStore? { nil }

    /// Resets the key in `store`, whatever its value type.
    func reset(in store: DefaultsStore) {}

    /// What the key declares for a published schema, in its own store or, when it names none,
    /// in `fallback`; each ``DefaultsKey`` overrides it.
    package func schemaDeclaration(storedIn fallback: DefaultsStore) -> (any SchemaDeclaration)? { nil }

    /// Keys are equal when they name the same stored key, scalar for scalar (so
    /// `"caf\u{E9}"` and `"cafe\u{301}"` are two keys, as in the suite), in the same store.
    public static func == (lhs: DefaultsKeys, rhs: DefaultsKeys) -> Bool {
        DefaultsStoredKey(lhs.name) == DefaultsStoredKey(rhs.name)
            && lhs.keyStore?.ownState === rhs.keyStore?.ownState
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(DefaultsStoredKey(name))
        hasher.combine(keyStore.map { ObjectIdentifier($0.ownState) })
    }
}
