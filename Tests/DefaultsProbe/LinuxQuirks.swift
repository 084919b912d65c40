import Foundation
import TypedDefaults

extension ProbeCase {
    /// Controls: each writes a value both with plain `UserDefaults` and through `@UserDefault`,
    /// and after a restart checks that the plain read shows the corelibs quirk listed in the
    /// StoresAndDurability article's "The Linux facts" while the typed read is right. If
    /// Foundation changes, these say so.
    static var linuxQuirks: [ProbeCase] {
        [
            // Alone in its process: the exit flush of a typed write would save it too. Every
            // round-trip case shows the typed side.
            ProbeCase(
                name: "quirk.unsynchronizedSetIsLost",
                write: { defaults in defaults.set("raw", forKey: "raw") },
                verify: { defaults in
                    expect(defaults.object(forKey: "raw") == nil, "a plain set survived exit without synchronize()")
                }),
            ProbeCase(
                name: "quirk.intMaxReadsAsZero",
                write: { defaults in
                    defaults.set(Int.max, forKey: "raw")
                    defaults.synchronize()
                    UserDefault(wrappedValue: 0, "typed", store: DefaultsStore(defaults)).wrappedValue = .max
                },
                verify: { defaults in
                    expect(defaults.integer(forKey: "raw") == 0, "integer(forKey:) now reads Int.max")
                        + expect(
                            UserDefault(wrappedValue: 0, "typed", store: DefaultsStore(defaults)).wrappedValue == .max,
                            "typed Int.max")
                }),
            ProbeCase(
                name: "quirk.urlStoredAsPath",
                write: { defaults in
                    defaults.set(webURL, forKey: "raw")
                    defaults.synchronize()
                    UserDefault(wrappedValue: URL(fileURLWithPath: "/"), "typed", store: DefaultsStore(defaults))
                        .wrappedValue =
                        webURL
                },
                verify: { defaults in
                    expect(defaults.url(forKey: "raw") != webURL, "url(forKey:) now keeps web URLs")
                        + expect(
                            UserDefault(
                                wrappedValue: URL(fileURLWithPath: "/"), "typed", store: DefaultsStore(defaults)
                            )
                            .wrappedValue
                                == webURL, "typed URL")
                }),
            ProbeCase(
                name: "quirk.floatComesBackAsDouble",
                write: { defaults in
                    defaults.set(Float(0.1), forKey: "raw")
                    defaults.synchronize()
                    UserDefault(wrappedValue: Float(0), "typed", store: DefaultsStore(defaults)).wrappedValue = 0.1
                },
                verify: { defaults in
                    expect(defaults.object(forKey: "raw") as? Float == nil, "a stored Float now reads as Float")
                        + expect(
                            UserDefault(wrappedValue: Float(0), "typed", store: DefaultsStore(defaults)).wrappedValue
                                == 0.1,
                            "typed Float")
                }),
            ProbeCase(
                name: "quirk.dateLosesFraction",
                write: { defaults in
                    defaults.set(fractionalDate, forKey: "raw")
                    defaults.synchronize()
                    UserDefault(wrappedValue: Date.distantPast, "typed", store: DefaultsStore(defaults)).wrappedValue =
                        fractionalDate
                },
                verify: { defaults in
                    expect(defaults.object(forKey: "raw") as? Date != fractionalDate, "plain dates now keep fractions")
                        + expect(
                            UserDefault(wrappedValue: Date.distantPast, "typed", store: DefaultsStore(defaults))
                                .wrappedValue
                                == fractionalDate, "typed Date")
                }),
            // corelibs' XML writer drops the sign of zero; ours keeps it.
            ProbeCase(
                name: "quirk.negativeZeroLosesItsSign",
                write: { defaults in
                    defaults.set(-0.0, forKey: "raw")
                    defaults.synchronize()
                    UserDefault(wrappedValue: 1.0, "typed", store: DefaultsStore(defaults)).wrappedValue = -0.0
                },
                verify: { defaults in
                    let raw = defaults.double(forKey: "raw")
                    let typed = UserDefault(wrappedValue: 1.0, "typed", store: DefaultsStore(defaults)).wrappedValue
                    return expect(raw == 0 && raw.sign == .plus, "plain -0.0 now keeps its sign")
                        + expect(typed == 0 && typed.sign == .minus, "typed -0.0 lost its sign")
                }),
        ]
    }

    private static let webURL = URL(string: "https://example.com/p/q?x=1#top")!
    private static let fractionalDate = Date(timeIntervalSinceReferenceDate: 1_234_567_890.125)

    private static func expect(_ condition: Bool, _ failure: String) -> [String] {
        condition ? [] : [failure]
    }
}
