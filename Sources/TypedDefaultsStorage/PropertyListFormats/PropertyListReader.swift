import Foundation

/// Reads property lists that come from outside the process — suite files, imported files, keyed
/// archives — in any of the three formats: binary (`bplist00`), XML and OpenStep.
///
/// Not Foundation's parser, for two reasons. corelibs returns dictionaries whose keys Swift's
/// `String` sees as equal merged into one (of `"caf\u{E9}"` and `"cafe\u{301}"`, one key is
/// lost, and the other takes its value), where a suite holds both; here every key is kept
/// exactly (see ``PropertyListObject/ExactDictionary``). And it expands a binary file's shared
/// objects without limit: 224 bytes that nest `n = [n, n]` 40 levels deep describe 2^40
/// elements, and every reader hangs while its memory grows. Here the work a file can cause is
/// bounded before anything is decoded (see ``Limits``).
///
/// Objects come back as the engine writes them: `String`, `Bool`, `Int` (`UInt64` above
/// `Int64.max`), `Double`, `Date`, `Data`, `[Any]`, and `[String: Any]` (or an exact dictionary).
package enum PropertyListReader {
    /// What a file may make a reader do, whatever its bytes.
    enum Limits {
        /// The deepest nesting of arrays and dictionaries read, the root counted. CoreFoundation
        /// refuses deeper files too; the reader's recursion stays far from any stack's end.
        static let maximumDepth = 512

        /// The most elements a file of `size` bytes may decode to, every reference to a shared
        /// object counted each time. A file whose containers are not shared has at most one
        /// element per reference, and a reference takes a byte at least: eight per byte leaves
        /// ample room for files that share objects (CoreFoundation shares equal strings and
        /// numbers), and none for the exponential growth of shared containers.
        static func maximumElements(forFileSize size: Int) -> Int {
            size.multipliedReportingOverflow(by: 8).partialValue &+ 1_024
        }

        /// The most bytes of strings and data a file may decode to, shared ones counted at each
        /// reference: what writing the contents out again would write.
        static func maximumPayloadBytes(forFileSize size: Int) -> Int {
            max(64 << 20, size.multipliedReportingOverflow(by: 16).partialValue)
        }
    }

    /// The object the bytes hold. `allowingUIDs` reads a keyed archive, whose references are
    /// ``ArchiveUID``s; a suite holds none.
    package static func object(from data: Data, allowingUIDs: Bool = false) throws(PropertyListFormatError) -> Any {
        let bytes = [UInt8](data)
        if bytes.starts(with: BinaryPropertyListReader.magic) {
            var reader = BinaryPropertyListReader(bytes: bytes, allowingUIDs: allowingUIDs)
            return try reader.read()
        }
        var start = 0
        // A UTF-8 byte order mark.
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { start = 3 }
        guard let first = bytes[start...].first(where: { !Self.isWhitespace($0) }) else {
            throw PropertyListFormatError("no property list: the text is empty")
        }
        if first == UInt8(ascii: "<"), XMLPropertyListReader.looksLikeXML(bytes[start...]) {
            var reader = XMLPropertyListReader(bytes: bytes, start: start)
            return try reader.read()
        }
        var reader = OpenStepPropertyListReader(bytes: bytes, start: start)
        return try reader.read()
    }

    /// A suite's entries: the root must be a dictionary.
    package static func suiteEntries(from data: Data) throws(PropertyListFormatError) -> [PropertyListKey: Any] {
        let root = try object(from: data)
        guard let entries = PropertyListObject.exactEntries(root) else {
            throw PropertyListFormatError("the root is \(PropertyListObject.describe(root)), not a dictionary of keys")
        }
        return entries
    }

    /// The bytes as text, or `nil` when they are not valid UTF-8 (never read with replacement
    /// characters, which would change the text when it is written again).
    static func utf8String(_ bytes: ArraySlice<UInt8>) -> String? {
        // ASCII needs no check, and is what most keys and values are.
        if bytes.allSatisfy({ $0 < 0x80 }) { return String(decoding: bytes, as: UTF8.self) }
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue: continue
            case .emptyInput: return String(decoding: bytes, as: UTF8.self)
            case .error: return nil
            }
        }
    }

    /// UTF-16 code units as text, or `nil` for a lone surrogate.
    static func utf16String(_ units: [UInt16]) -> String? {
        var scalars = String.UnicodeScalarView()
        var iterator = units.makeIterator()
        var decoder = UTF16()
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar): scalars.append(scalar)
            case .emptyInput: return String(scalars)
            case .error: return nil
            }
        }
    }

    static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }
}

/// Why bytes are not a property list, in one line.
package struct PropertyListFormatError: Error, CustomStringConvertible {
    package let description: String

    init(_ description: String) {
        self.description = description
    }
}

/// A reference between the objects of a keyed archive (`NSKeyedArchiver`'s `CF$UID`).
package struct ArchiveUID: Equatable {
    package let value: UInt64
}

/// Gathers a dictionary's entries as a reader finds them: a `[String: Any]`, unless two keys
/// differ in their scalars but not as Swift strings, when it is an exact dictionary. A key
/// written twice exactly keeps its last value, as CoreFoundation does.
struct DictionaryBuilder {
    private var entries: [(key: String, value: Any)] = []

    init(capacity: Int) {
        entries.reserveCapacity(capacity)
    }

    mutating func add(_ key: String, _ value: Any) {
        entries.append((key, value))
    }

    func build() -> Any {
        var dictionary: [String: Any] = [:]
        dictionary.reserveCapacity(entries.count)
        for (key, value) in entries {
            if let index = dictionary.index(forKey: key),
                !dictionary[index].key.unicodeScalars.elementsEqual(key.unicodeScalars)
            {
                return PropertyListObject.ExactDictionary(entries)
            }
            dictionary[key] = value
        }
        return dictionary
    }
}
