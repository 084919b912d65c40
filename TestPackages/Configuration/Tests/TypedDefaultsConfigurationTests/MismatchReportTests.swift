import Configuration
import Foundation
import Synchronization
import Testing
import TypedDefaults
import TypedDefaultsConfiguration

/// A stored value of another type than a server reads is reported where an operator looks:
/// to `DefaultsError.handler` (standard error unless the program says otherwise), once per
/// stored value, and to swift-configuration's access reporter, which sees the provider's error.
@Suite struct MismatchReportTests {
    /// The access events a reader reports.
    final class Events: AccessReporter {
        private let events = Mutex<[AccessEvent]>([])
        func report(_ event: AccessEvent) { events.withLock { $0.append(event) } }
        var all: [AccessEvent] { events.withLock { $0 } }

        /// The errors the providers threw, in order.
        var providerErrors: [String] {
            all.flatMap(\.providerResults).compactMap { result in
                if case .failure(let error) = result.result { "\(error)" } else { nil }
            }
        }
    }

    /// The (key, expected, found) of each type mismatch reported.
    static func mismatches(_ reported: [DefaultsError]) -> [String] {
        reported.map { error in
            if case .typeMismatch(let key, let expected, let found) = error {
                "\(key): \(expected), \(found)"
            } else {
                "another error: \(error)"
            }
        }
    }

    @Test func aMismatchIsReportedToTheHandlerAndTheAccessReporter() async throws {
        let (_, store) = try Suites.make()
        try store.editStoredValues { values in
            values["http.maxConnections"] = 1.5
            values["limits"] = ["retries": "42"]
        }
        let provider = try DefaultsProvider(store: store)
        let events = Events()
        let config = ConfigReader(provider: provider, accessReporter: events)

        let (read, reported) = await HandlerReports.during {
            [
                config.int(forKey: "http.maxConnections", default: 100),
                config.int(forKey: "limits.retries", default: 3),
                config.int(forKey: "http.maxConnections", default: 100),
            ]
        }
        #expect(read == [100, 3, 100], "the default, never a converted value")
        #expect(
            Self.mismatches(reported) == ["http.maxConnections: int, a float", "limits.retries: int, a string"],
            "each reported once while its stored value stays")
        #expect(
            events.providerErrors == [
                "http.maxConnections holds a float, which is not int",
                "limits.retries holds a string, which is not int",
                "http.maxConnections holds a float, which is not int",
            ])

        // Another stored value that still does not fit is reported again; a fetch with a
        // default throws the mismatch, as swift-configuration's fetch does with a provider's error.
        try store.editStoredValues { $0["http.maxConnections"] = 2.5 }
        let (_, again) = await HandlerReports.during {
            await #expect(throws: DefaultsProviderTypeMismatch.self) {
                try await config.fetchInt(forKey: "http.maxConnections", default: 100)
            }
        }
        #expect(Self.mismatches(again) == ["http.maxConnections: int, a float"])
    }

    /// A watch of a key whose stored value does not fit gives the default and reports it once.
    @Test func aWatchReportsAMismatchOnce() async throws {
        let (_, store) = try Suites.make()
        try store.editStoredValues { $0["workers"] = "four" }
        let provider = try DefaultsProvider(store: store)
        let config = ConfigReader(provider: provider)
        let (first, reported) = try await HandlerReports.during {
            try await config.watchInt(forKey: "workers", default: 2) { updates in
                var iterator = updates.makeAsyncIterator()
                return try await iterator.next()
            }
        }
        #expect(first == 2)
        #expect(Self.mismatches(reported) == ["workers: int, a string"])
    }
}
