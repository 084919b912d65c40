import Foundation
import TypedDefaults

/// An untyped value, as earlier versions spelled it.
func storeAnything(in store: DefaultsStore) -> Any {
    @UserDefault("anything", store: store) var anything = DefaultsPropertyList(["mixed", 1, true] as [Any])
    anything = DefaultsPropertyList(["b": [1.5]] as [String: Any])
    return anything.object
}

/// A property in a `UserDefaults` object's suite, and built-in rules added by name.
func earlierSpellings(of defaults: UserDefaults) -> Int {
    @UserDefault("retries", defaults: defaults) var retries = 3
    @UserDefault("nickname", defaults: defaults) var nickname: String?
    let limited = UserDefault(wrappedValue: 3, "retries", defaults: defaults)
        .adding(.clamped(to: 0...5)).adding(.validate { $0 != 4 }).adding(.ensure(when: { $0 == 1 }, use: 2))
    let named = DefaultsKey<String?>("nickname").adding(.whenNil(use: "friend"))
    return retries + limited.wrappedValue + (nickname?.count ?? 0) + (named.defaultValue?.count ?? 0)
}

/// A migration step of one's own, with the stored objects as `Any`.
let countLaunches = DefaultsMigration.custom("count launches in a dictionary") { values in
    values["stats"] = ["launches": values["launchCount"] ?? 0]
    values["launchCount"] = nil
}

/// A collection with a sequence initializer, conforming through the protocol earlier versions had
/// for it.
struct Tags: ExpressibleBySequence, DefaultsValueConvertible {
    private var tags: [String]
    init<S: Sequence>(_ elements: S) where S.Element == String { tags = Array(elements) }
    func makeIterator() -> IndexingIterator<[String]> { tags.makeIterator() }
}

func storeTags(in store: DefaultsStore) -> Int {
    @UserDefault("tags", store: store) var tags = Tags(["swift"])
    return Array(tags).count
}
