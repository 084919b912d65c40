// swift-format-ignore-file
// Ported from juliand665/UserDefault (MIT, see LICENSE here); Tests.swift lists every change.
import XCTest
import TypedDefaults

final class PropertyWrapperTests: Tests {
	static var allTests = [
		("properties", testProperties),
	]
	
	@UserDefault("propertyWithDefault")
	var propertyWithDefaultTest: String = "asdf"
	@UserDefault("optionalProperty")
	var optionalPropertyTest: String?
	@UserDefault("optionalPropertyWithDefault")
	var optionalPropertyWithDefaultTest: String? = "asdf"
	
	@UserDefault("propertyWithDefault2", defaults: .standard)
	var propertyWithDefaultTest2: String = "asdf"
	@UserDefault("optionalProperty2", defaults: .standard)
	var optionalPropertyTest2: String?
	@UserDefault("optionalPropertyWithDefault2", defaults: .standard)
	var optionalPropertyWithDefaultTest2: String? = "asdf"
	
	func testProperties() {
		dump(storedDomain())
		
		XCTAssertEqual(propertyWithDefaultTest, "asdf")
		propertyWithDefaultTest = "jklö"
		XCTAssertEqual(propertyWithDefaultTest, "jklö")
		
		XCTAssertNil(optionalPropertyTest)
		optionalPropertyTest = "jklö"
		XCTAssertEqual(optionalPropertyTest, "jklö")
		
		XCTAssertEqual(optionalPropertyWithDefaultTest, "asdf")
		optionalPropertyWithDefaultTest = "jklö"
		XCTAssertEqual(optionalPropertyWithDefaultTest, "jklö")
		
		storedDomain()!.values
			.forEach { XCTAssert($0 as? String == "jklö" || $0 as? [String] == ["jklö"]) }
	}
}
