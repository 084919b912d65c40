import Foundation
import Testing
import TypedDefaults

@testable import DefaultsProbe

/// Stores `object` raw under a key, reads it as `Value`, and checks the whole contract.
func expectFailedRead<Value: DefaultsValueConvertible & Equatable>(
    _ object: Any, as defaultValue: Value, sourceLocation: SourceLocation = #_sourceLocation,
    _ matches: @escaping (DefaultsError) -> Bool
) throws {
    let suite = try TestSuite("badInput")
    suite.plant(object, forKey: "key")
    let before = try suite.fileBytes()
    #expect(before != nil, sourceLocation: sourceLocation)
    let wrapper = UserDefault(wrappedValue: defaultValue, "key", store: DefaultsStore(suite.defaults))

    let (value, reported) = ReportedErrors.during { wrapper.wrappedValue }
    #expect(value == defaultValue, sourceLocation: sourceLocation)
    #expect(reported.count == 1, sourceLocation: sourceLocation)
    #expect(reported.allSatisfy(matches), "\(reported)", sourceLocation: sourceLocation)
    #expect(reported.allSatisfy { $0.key == "key" }, sourceLocation: sourceLocation)

    let thrown = #expect(throws: DefaultsError.self, sourceLocation: sourceLocation) { try wrapper.load() }
    #expect(thrown.map(matches) == true, "\(String(describing: thrown))", sourceLocation: sourceLocation)
    #expect(try suite.fileBytes() == before, "stored data changed", sourceLocation: sourceLocation)
}

func isMismatch(expected: String, found: String) -> (DefaultsError) -> Bool {
    { error in
        guard case .typeMismatch(_, let e, let f) = error else { return false }
        return e == expected && f.contains(found)
    }
}

func isCorrupt(_ error: DefaultsError) -> Bool {
    if case .corrupt = error { return true }
    return false
}
