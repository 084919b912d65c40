// swift-format-ignore-file
// Ported from juliand665/UserDefault (MIT, see LICENSE here); Tests.swift lists every change.
import XCTest

#if !canImport(ObjectiveC)
public func allTests() -> [XCTestCaseEntry] {
    [
        testCase(FailureTests.allTests),
        testCase(PropertyWrapperTests.allTests),
        testCase(SimpleTests.allTests),
    ]
}
#endif
