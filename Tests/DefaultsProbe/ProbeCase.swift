import Foundation
import TypedDefaults

/// Something written through `@UserDefault` in one process and verified in the next.
struct ProbeCase {
    let name: String
    let write: (UserDefaults) -> Void
    /// Returns a description of each difference found; empty when all is well.
    let verify: (UserDefaults) -> [String]

    /// Stores each value under its own key, and checks that both `load()` and a plain read
    /// return it. The values are built only when the case runs.
    static func roundTrip<Value: DefaultsValueConvertible>(
        _ name: String, default defaultValue: Value, _ values: @autoclosure @escaping () -> [Value],
        same: @escaping (Value, Value) -> Bool
    ) -> ProbeCase {
        func wrapper(_ index: Int, _ defaults: UserDefaults) -> UserDefault<Value> {
            UserDefault(wrappedValue: defaultValue, "\(name).\(index)", store: DefaultsStore(defaults))
        }
        return ProbeCase(
            name: name,
            write: { defaults in
                for (index, value) in values().enumerated() {
                    wrapper(index, defaults).wrappedValue = value
                }
            },
            verify: { defaults in
                values().enumerated().compactMap { index, expected in
                    let stored = wrapper(index, defaults)
                    do {
                        let loaded = try stored.load()
                        guard same(loaded, expected), same(stored.wrappedValue, expected) else {
                            return "\(stored.key): expected \(expected), read \(loaded)"
                        }
                        return nil
                    } catch {
                        return "\(stored.key): \(error)"
                    }
                }
            })
    }

    static func roundTrip<Value: DefaultsValueConvertible & Equatable>(
        _ name: String, default defaultValue: Value, _ values: @autoclosure @escaping () -> [Value]
    ) -> ProbeCase {
        roundTrip(name, default: defaultValue, values(), same: ==)
    }
}
