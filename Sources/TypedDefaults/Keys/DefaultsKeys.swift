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
/// finds the statics declared here, and `Value` is inferred from the key.
// @unchecked Sendable is sound: the class has no stored properties.
public class DefaultsKeys: @unchecked Sendable {
    init() {}
}
