import Foundation
import TypedDefaults

extension RoundTripFamily {
    /// Keys with the same text as values have (NUL, control characters, emoji, noncharacters),
    /// and pairs of canonically equivalent keys (`"é"` and `"e\u{301}"`), which Swift compares
    /// as equal but a suite keeps apart, each holding a value of its own.
    static var keys: [RoundTripFamily] {
        [
            RoundTripFamily(name: "keys.text", count: 60) { draw, key in
                let names = [key + "." + draw.nested { String.generate(&$0) }]
                return keyEntry(names, values: [Int.generate(&draw)])
            },
            RoundTripFamily(name: "keys.twins", count: 40) { draw, key in
                let (first, second) = draw.pick(RoundTripText.twins)
                let suffix = draw.chance(0.5) ? "" : RoundTripText.ascii(&draw)
                let names = [key + "." + first + suffix, key + "." + second + suffix]
                return keyEntry(names, values: [Int.generate(&draw), Int.generate(&draw)])
            },
        ]
    }

    private static func keyEntry(_ names: [String], values: [Int]) -> RoundTripEntry {
        RoundTripEntry(
            write: { context in
                for (name, value) in zip(names, values) {
                    UserDefault(wrappedValue: -1, name, store: context.store).wrappedValue = value
                }
                return names.flatMap { name in context.reported.take(key: name).map { "the write was reported: \($0)" }
                }
            },
            verify: { context in
                zip(names, values).compactMap { name, value in
                    let property = UserDefault(wrappedValue: -1, name, store: context.store)
                    do {
                        let read = try property.load()
                        guard read != value else { return nil }
                        return "key \(Fingerprint.text(name)): written \(value), read \(read)"
                    } catch {
                        return "key \(Fingerprint.text(name)): written \(value), load() failed: \(error)"
                    }
                }
            })
    }
}
