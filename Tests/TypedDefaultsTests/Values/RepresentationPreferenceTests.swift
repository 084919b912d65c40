import Foundation
import Testing
import TypedDefaults

@testable import DefaultsProbe

/// A type that qualifies for two representations gets the documented one, and a one-line
/// opt-in picks the other.
@Suite struct RepresentationPreferenceTests {
    @Test func rawRepresentableAndCodableIsStoredAsItsRawValue() throws {
        let suite = try TestSuite()
        @UserDefault("mode", store: DefaultsStore(suite.defaults)) var mode = Mode.automatic
        mode = .manual
        #expect(try suite.flushedObject(forKey: "mode") as? String == "manual")
    }

    @Test func preferCodableStoresJSON() throws {
        let suite = try TestSuite()
        @UserDefault("quality", store: DefaultsStore(suite.defaults)) var quality = Quality.low
        @UserDefault("rank", store: DefaultsStore(suite.defaults)) var rank = Rank.first
        quality = .high
        rank = .second
        #expect(try suite.flushedObject(forKey: "quality") as? String == #""high""#)
        #expect(try suite.flushedObject(forKey: "rank") as? String == "2")
        #expect(quality == .high && rank == .second)
    }

    /// A raw value written before the opt-in is not JSON: it reads as the default, is reported
    /// and is kept.
    @Test func preferCodableRefusesABareRawValue() throws {
        let suite = try TestSuite()
        suite.plant("high", forKey: "quality")
        @UserDefault("quality", store: DefaultsStore(suite.defaults)) var quality = Quality.low
        let (value, reported) = ReportedErrors.during { quality }
        #expect(value == .low)
        #expect(reported.count == 1)
        #expect(reported.allSatisfy { if case .corrupt = $0 { true } else { false } })
        #expect(try suite.flushedObject(forKey: "quality") as? String == "high")
    }

    @Test func secureCodingAndCodableIsStoredAsJSON() throws {
        let suite = try TestSuite()
        @UserDefault("pin", store: DefaultsStore(suite.defaults)) var pin = Pin(label: "none")
        pin = Pin(label: "home")
        #expect(try suite.flushedObject(forKey: "pin") as? String == #"{"label":"home"}"#)
        #expect(pin.label == "home")
    }

    @Test func preferSecureCodingStoresAKeyedArchive() throws {
        let suite = try TestSuite()
        @UserDefault("pin", store: DefaultsStore(suite.defaults)) var pin = ArchivedPin(label: "none")
        pin = ArchivedPin(label: "work")
        let stored = try #require(try suite.flushedObject(forKey: "pin") as? Data)
        let archived = try NSKeyedUnarchiver.unarchivedObject(ofClass: ArchivedPin.self, from: stored)
        #expect(archived?.label == "work")
        #expect(pin.label == "work")
    }

    /// JSON under a key that expects an archive, and an archive of another class: the default,
    /// reported, and the stored value kept.
    @Test func preferSecureCodingRefusesWhatIsNotItsArchive() throws {
        let suite = try TestSuite()
        suite.plant(#"{"label":"home"}"#, forKey: "json")
        suite.plant(
            try NSKeyedArchiver.archivedData(withRootObject: Pin(label: "other"), requiringSecureCoding: true),
            forKey: "other")
        let fallback = ArchivedPin(label: "none")
        for key in ["json", "other"] {
            let wrapper = UserDefault(wrappedValue: fallback, key, store: DefaultsStore(suite.defaults))
            let (value, reported) = ReportedErrors.during { wrapper.wrappedValue }
            #expect(value === fallback)
            #expect(reported.count == 1, "\(key): \(reported)")
        }
        #expect(try suite.flushedObject(forKey: "json") as? String == #"{"label":"home"}"#)
    }
}
