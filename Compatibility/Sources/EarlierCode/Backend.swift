import Foundation
import TypedDefaults

/// A backend written for earlier versions: its commit takes a wall-clock deadline, and its
/// check the key as a `String`.
struct EarlierBackend: DefaultsBackend {
    var location: String { "earlier" }

    func load() throws(DefaultsError) -> [DefaultsStoredKey: DefaultsStoredValue] { [:] }

    func commit(
        _ changes: [DefaultsStoredKey: DefaultsStoredValue?], before deadline: Date,
        edit: (inout [DefaultsStoredKey: DefaultsStoredValue]) throws(DefaultsError) -> Void
    ) throws(DefaultsError) -> [DefaultsStoredKey: DefaultsStoredValue] {
        var values: [DefaultsStoredKey: DefaultsStoredValue] = [:]
        for (key, value) in changes { values[key] = value }
        try edit(&values)
        return values
    }

    func observeChanges(_ changed: @escaping @Sendable () -> Void) {}

    func check(_ value: DefaultsStoredValue, forKey key: String) throws(DefaultsError) {
        if key.isEmpty { throw .encodingFailed(key: key, underlying: CocoaError(.fileWriteInvalidFileName)) }
    }
}

func commitWithADate(to backend: some DefaultsBackend) throws -> [DefaultsStoredKey: DefaultsStoredValue] {
    try backend.commit(["a": .integer(1)], before: Date(timeIntervalSinceNow: 1)) { _ in }
}
