import Foundation
import TypedDefaults

// Types of every conformance family, shared by the probe's cases and the tests.

enum Channel: String, CaseIterable, DefaultsValueConvertible { case music, voice, effects }

enum Level: Int, DefaultsValueConvertible { case low = 1, high = 10 }

/// Codable and RawRepresentable: stored as the raw value.
enum Mode: String, Codable, DefaultsValueConvertible { case automatic, manual }

struct WindowLayout: Codable, Equatable, DefaultsValueConvertible {
    var width: Int
    var height: Int
    var title: String?
    var opened: Date
    var zoom: Double
}

final class Swatch: NSObject, NSSecureCoding, DefaultsValueConvertible {
    static var supportsSecureCoding: Bool { true }
    let name: String
    let hue: Int

    init(name: String, hue: Int) {
        self.name = name
        self.hue = hue
    }

    func encode(with coder: NSCoder) {
        coder.encode(name as NSString, forKey: "name")
        coder.encode(hue, forKey: "hue")
    }

    init?(coder: NSCoder) {
        guard let name = coder.decodeObject(of: NSString.self, forKey: "name") else { return nil }
        self.name = name as String
        hue = coder.decodeInteger(forKey: "hue")
    }

    override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? Swatch else { return false }
        return other.name == name && other.hue == hue
    }

    override var hash: Int { name.hashValue ^ hue }
}

/// A temperature stored as an integer number of tenths: a direct custom conversion.
struct Tenths: Equatable, DefaultsValueConvertible {
    var count: Int
    init(_ count: Int) { self.count = count }
    init(defaultsRepresentation: Int) { count = defaultsRepresentation }
    func defaultsRepresentation() -> Int { count }
}

/// Stored through `Tenths`: one indirect step.
struct Celsius: Equatable, IndirectDefaultsValueConvertible {
    typealias DefaultsRepresentation = Int
    var degrees: Double
    init(_ degrees: Double) { self.degrees = degrees }
    init(indirectRepresentation: Tenths) { degrees = Double(indirectRepresentation.count) / 10 }
    func indirectRepresentation() -> Tenths { Tenths(Int((degrees * 10).rounded())) }
}

/// Stored through `Celsius`, then `Tenths`: a chain of two indirect steps.
struct Fahrenheit: Equatable, IndirectDefaultsValueConvertible {
    typealias DefaultsRepresentation = Int
    var degrees: Double
    init(_ degrees: Double) { self.degrees = degrees }
    init(indirectRepresentation: Celsius) { degrees = indirectRepresentation.degrees * 9 / 5 + 32 }
    func indirectRepresentation() -> Celsius { Celsius((degrees - 32) * 5 / 9) }
}

/// A custom collection whose sequence initializer satisfies `ExpressibleBySequence`: stored as an
/// array with an empty conformance.
struct TagList: Equatable, ExpressibleBySequence, DefaultsValueConvertible {
    private var tags: [String]
    init<S: Sequence>(_ elements: S) where S.Element == String { tags = Array(elements) }
    func makeIterator() -> IndexingIterator<[String]> { tags.makeIterator() }
}

/// A collection that adopts only `ExpressibleByArray`.
struct Stack: Equatable, ExpressibleByArray, DefaultsValueConvertible {
    private(set) var items: [Int]
    init(array: [Int]) { items = array }
    func makeIterator() -> IndexingIterator<[Int]> { items.makeIterator() }
}

/// A percentage that refuses values outside 0...100, on read and on write.
struct Percentage: Equatable, DefaultsValueConvertible {
    struct OutOfRange: Error {}
    var value: Int
    init(_ value: Int) { self.value = value }
    init(defaultsRepresentation: Int) throws {
        guard (0...100).contains(defaultsRepresentation) else { throw OutOfRange() }
        value = defaultsRepresentation
    }
    func defaultsRepresentation() throws -> Int {
        guard (0...100).contains(value) else { throw OutOfRange() }
        return value
    }
}

/// Stored through `Percentage`, so its errors come from one step down the chain.
struct Opacity: Equatable, IndirectDefaultsValueConvertible {
    typealias DefaultsRepresentation = Int
    var percent: Int
    init(indirectRepresentation: Percentage) { percent = indirectRepresentation.value }
    func indirectRepresentation() -> Percentage { Percentage(percent) }
}

/// Codable and RawRepresentable, opted in to JSON.
enum Quality: String, Codable, DefaultsPreferCodable { case low, high }

/// Codable and Int-backed, opted in to JSON.
enum Rank: Int, Codable, DefaultsPreferCodable { case first = 1, second }

/// A secure-coding class that is also Codable; written by either representation.
class CodedPin: NSObject, NSSecureCoding, Codable {
    class var supportsSecureCoding: Bool { true }
    let label: String

    init(label: String) { self.label = label }

    func encode(with coder: NSCoder) { coder.encode(label as NSString, forKey: "label") }

    required init?(coder: NSCoder) {
        guard let label = coder.decodeObject(of: NSString.self, forKey: "label") else { return nil }
        self.label = label as String
    }

    override func isEqual(_ object: Any?) -> Bool {
        (object as? CodedPin)?.label == label
    }

    override var hash: Int { label.hashValue }
}

/// NSSecureCoding and Codable: stored as JSON by default.
final class Pin: CodedPin, DefaultsValueConvertible {}

/// NSSecureCoding and Codable, opted in to a keyed archive.
final class ArchivedPin: CodedPin, DefaultsPreferSecureCoding {}
