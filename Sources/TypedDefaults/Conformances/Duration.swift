/// A `Duration` is stored as a dictionary of its two components, `seconds` and `attoseconds`
/// (`{seconds = 90; attoseconds = 500000000000000000}` for 90.5 seconds): exact to the
/// attosecond, where a `Double` of seconds would round.
///
/// ```swift
/// @UserDefault("sessionTimeout") var sessionTimeout = Duration.seconds(30 * 60)
/// ```
///
/// A duration longer than `Int64.max` seconds (some 292 billion years) cannot be stored: the
/// write is refused and reported (``DefaultsError/encodingFailed(key:underlying:)``). A stored
/// dictionary without both components is a type mismatch.
extension Duration: DefaultsValueConvertible {
    public init(defaultsRepresentation stored: [String: Int64]) throws {
        func component(_ name: String) throws -> Int64 {
            guard let value = stored[name] else {
                throw DefaultsTypeMismatch(expected: "Duration", found: "a dictionary without \"\(name)\"")
            }
            return value
        }
        self.init(secondsComponent: try component("seconds"), attosecondsComponent: try component("attoseconds"))
    }

    public func defaultsRepresentation() throws -> [String: Int64] {
        // `components` traps when the seconds do not fit in an `Int64`.
        guard Self.storable.contains(self) else { throw DurationOutOfRange(duration: self) }
        return ["seconds": components.seconds, "attoseconds": components.attoseconds]
    }

    private static let storable =
        Duration(
            secondsComponent: .min, attosecondsComponent: -999_999_999_999_999_999)...Duration(
            secondsComponent: .max, attosecondsComponent: 999_999_999_999_999_999)
}

/// A duration too long to store as whole seconds in an `Int64`.
struct DurationOutOfRange: Error, CustomStringConvertible {
    var duration: Duration

    var description: String {
        "\(duration) is longer than Int64.max seconds, the longest duration that can be stored"
    }
}
