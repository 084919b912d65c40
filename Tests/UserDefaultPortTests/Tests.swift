// swift-format-ignore-file
// juliand665/UserDefault's own test suite (Tests/UserDefaultTests at its last commit, MIT: see
// LICENSE here), compiled against TypedDefaults in the Swift 5 mode it was written in, with its
// tabs kept (hence no swift-format) and its warnings quiet (Package.swift says why). The
// changes, each for a reason this port cannot avoid:
//
// - Every file: `@testable import UserDefault` is `import TypedDefaults`: the public API, but
//   for the test isolation below. LinuxMain.swift is left out: SwiftPM finds the tests itself.
// - Tests.swift: `setUp` cleared `UserDefaults.standard`'s domain, named by the bundle
//   identifier, which Linux does not have; that would also write a file into the preferences
//   folder, which this package's tests must leave empty. Instead `invokeTest` runs each test in
//   fresh copies of every suite in memory (the package's `IsolatedSuites`, which the
//   test-support library's `.isolatedDefaults` uses for Swift Testing): no test sees another's
//   values, nor those of this package's other tests. `storedDomain()` is added, for the next
//   change, with the import of TypedDefaultsSchema it needs.
// - PropertyWrapperTests.swift: it read `defaults.persistentDomain(forName:
//   Bundle.main.bundleIdentifier!)`; it reads `storedDomain()`, the same dictionary as this
//   engine stores it (Foundation's `UserDefaults` on Linux does not see the engine's writes
//   until they are flushed, nor a test's copy).
// - SimpleTests.swift: Linux has neither NSColor nor UIColor; there, the color literals are a
//   small NSSecureCoding class of this port's (`PortColor`), stored by the conformance NSColor
//   and UIColor use.
// - FailureTests.swift, testOtherError: the one test that cannot pass as written. It reads as
//   `Data` a key holding a Codable value and expects the JSON bytes; here a Codable value is a
//   JSON string (see the SupportedTypes article), so the `Data` read is a type mismatch and
//   gives the default, as every mismatched read does. Its last assertion says so.
import XCTest
import TypedDefaults
import TypedDefaultsSchema

let defaults = UserDefaults.standard
let testKey = "test"

class Tests: XCTestCase {
	// Port: each test in fresh copies of the suites, in memory (see above).
	override func invokeTest() {
		IsolatedSuites.$current.withValue(IsolatedSuites()) { super.invokeTest() }
	}
}

func saveAndLoad<T>(_ value: T, defaultValue: T) where T: DefaultsValueConvertible & Equatable {
	precondition(value != defaultValue)
	do {
		var wrapper = UserDefault(wrappedValue: defaultValue, testKey)
		// back and forth a few times to make sure everything works
		wrapper.wrappedValue = value
		wrapper.wrappedValue = defaultValue
		wrapper.wrappedValue = value
	}
	let wrapper = UserDefault(wrappedValue: defaultValue, testKey)
	XCTAssertEqual(wrapper.wrappedValue, value)
}

// Port: the standard suite's values as this engine stores them, property-list objects by key.
func storedDomain() -> [String: Any]? {
	guard let values = try? DefaultsStore(defaults).storedValues() else { return nil }
	return Dictionary(uniqueKeysWithValues: values.map { ($0.key.name, $0.value.propertyListObject) })
}
