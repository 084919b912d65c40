import Foundation

/// Writes a suite's contents as a binary property list (`bplist00`), the format Apple's
/// preferences daemon writes and every property-list reader accepts (CoreFoundation on every
/// platform, Python's `plistlib`, libplist).
///
/// Binary rather than XML because only binary keeps every value exactly: XML dates have whole
/// seconds (CoreFoundation refuses a fraction), XML cannot hold control characters at all (other
/// parsers reject the whole file), and conforming XML parsers turn `"\r\n"` into `"\n"`. A commit
/// must give back every key it did not change exactly as it was, whoever wrote it.
///
/// Strings are written as ASCII or UTF-16, numbers in the fewest bytes that hold them (an
/// unsigned value above `Int64.max` in 16 bytes, as CoreFoundation does), dates and reals as
/// 64-bit floats, dictionary keys sorted by their scalars so the same contents give the same
/// bytes. Keys are written exactly: two that Swift's `String` sees as equal stay two.
///
/// Equal strings and data are written once and referred to wherever they occur, as
/// CoreFoundation and `plistlib` write them: a file that shares one large string among many
/// arrays reads into as many references, and must not grow a hundredfold when it is written
/// back.
package enum BinaryPropertyList {
    package static func data(entries contents: [(key: PropertyListKey, value: Any)]) throws -> Data {
        // A key and a value for each entry, at least: reserved, so that the tables of a large
        // suite are not copied over and over as they grow, which would double the memory a
        // commit takes at its peak.
        var writer = Writer(capacity: 2 * contents.count + 1)
        let top = try writer.addDictionary(contents)
        return writer.finish(top: top)
    }

    /// The bytes of one property-list object.
    package static func data(object: Any) throws -> Data {
        var writer = Writer()
        let top = try writer.add(object)
        return writer.finish(top: top)
    }

    /// One object of the file, its children named by index into the object table.
    private enum Object {
        case bool(Bool)
        case signed(Int64)
        case unsigned(UInt64)
        case real(Double)
        case date(Double)
        case data(Data)
        case string(String)
        case array([Int])
        case dictionary(keys: [Int], values: [Int])
    }

    private struct Writer {
        var objects: [Object] = []
        /// Where each string and data written so far is, compared exactly (scalar for scalar,
        /// byte for byte).
        var strings: [PropertyListKey: Int] = [:]
        var datas: [ExactBytes: Int] = [:]

        init(capacity: Int = 0) {
            objects.reserveCapacity(capacity)
            strings.reserveCapacity(capacity)
        }

        /// Adds `object` and everything in it; returns its index.
        mutating func add(_ object: Any) throws -> Int {
            if let number = Self.number(object) { return append(number) }
            switch object {
            case let string as String:
                return addString(string)
            case let data as Data:
                if let index = datas[ExactBytes(data: data)] { return index }
                let index = append(.data(data))
                datas[ExactBytes(data: data)] = index
                return index
            case let date as Date:
                return append(.date(date.timeIntervalSinceReferenceDate))
            case let entries as [String: Any]:
                return try addDictionary(entries.map { (key: PropertyListKey($0.key), value: $0.value) })
            case let exact as PropertyListObject.ExactDictionary:
                return try addDictionary(exact.entries.map { (key: $0.key, value: $0.value) })
            case let elements as [Any]:
                let index = append(.array([]))
                var children: [Int] = []
                for element in elements { children.append(try add(element)) }
                objects[index] = .array(children)
                return index
            default:
                throw NotAPropertyList(type: type(of: object))
            }
        }

        /// Adds a dictionary of `entries`, sorted by key; returns its index.
        mutating func addDictionary(_ entries: [(key: PropertyListKey, value: Any)]) throws -> Int {
            let index = append(.dictionary(keys: [], values: []))
            var keys: [Int] = []
            var values: [Int] = []
            keys.reserveCapacity(entries.count)
            values.reserveCapacity(entries.count)
            for (key, value) in entries.sorted(by: { $0.0 < $1.0 }) {
                keys.append(addString(key.name))
                values.append(try add(value))
            }
            objects[index] = .dictionary(keys: keys, values: values)
            return index
        }

        private mutating func addString(_ string: String) -> Int {
            let key = PropertyListKey(string)
            if let index = strings[key] { return index }
            let index = append(.string(string))
            strings[key] = index
            return index
        }

        private mutating func append(_ object: Object) -> Int {
            objects.append(object)
            return objects.count - 1
        }

        /// The object for a number or boolean, or `nil` when `object` is neither. The value's
        /// type is compared first: `as? NSNumber` on a Swift `String` bridges, which is slow.
        private static func number(_ object: Any) -> Object? {
            let kind = type(of: object)
            let isSwiftNumber = [Int.self, Double.self, Bool.self, Int64.self, UInt64.self, Float.self].contains {
                $0 == kind
            }
            guard isSwiftNumber || kind is NSNumber.Type else { return nil }
            switch PropertyListObject.number(object) {
            case .bool(let value): return .bool(value)
            case .signed(let value): return .signed(value)
            case .unsigned(let value): return value <= UInt64(Int64.max) ? .signed(Int64(value)) : .unsigned(value)
            case .floating(let value): return .real(value)
            case nil: return nil
            }
        }

        /// The file: header, objects, offset table, trailer.
        func finish(top: Int) -> Data {
            let referenceSize = Self.byteCount(for: UInt64(objects.count))
            var bytes: [UInt8] = Array("bplist00".utf8)
            bytes.reserveCapacity(objects.count * 16)
            var offsets: [Int] = []
            offsets.reserveCapacity(objects.count)
            for object in objects {
                offsets.append(bytes.count)
                Self.write(object, referenceSize: referenceSize, to: &bytes)
            }
            let tableOffset = bytes.count
            let offsetSize = Self.byteCount(for: UInt64(tableOffset))
            for offset in offsets { Self.appendBigEndian(UInt64(offset), size: offsetSize, to: &bytes) }
            bytes += [0, 0, 0, 0, 0, 0, UInt8(offsetSize), UInt8(referenceSize)]
            Self.appendBigEndian(UInt64(objects.count), size: 8, to: &bytes)
            Self.appendBigEndian(UInt64(top), size: 8, to: &bytes)
            Self.appendBigEndian(UInt64(tableOffset), size: 8, to: &bytes)
            return Data(bytes)
        }

        private static func write(_ object: Object, referenceSize: Int, to bytes: inout [UInt8]) {
            switch object {
            case .bool(let value):
                bytes.append(value ? 0x09 : 0x08)
            case .signed(let value):
                appendInteger(value, to: &bytes)
            case .unsigned(let value):
                bytes.append(0x14)
                appendBigEndian(0, size: 8, to: &bytes)
                appendBigEndian(value, size: 8, to: &bytes)
            case .real(let value):
                bytes.append(0x23)
                appendBigEndian(value.bitPattern, size: 8, to: &bytes)
            case .date(let value):
                bytes.append(0x33)
                appendBigEndian(value.bitPattern, size: 8, to: &bytes)
            case .data(let data):
                appendMarker(0x40, count: data.count, to: &bytes)
                bytes += data
            case .string(let string):
                if string.utf8.allSatisfy({ $0 < 0x80 }) {
                    appendMarker(0x50, count: string.utf8.count, to: &bytes)
                    bytes += string.utf8
                } else {
                    let units = Array(string.utf16)
                    appendMarker(0x60, count: units.count, to: &bytes)
                    for unit in units { bytes += [UInt8(unit >> 8), UInt8(unit & 0xFF)] }
                }
            case .array(let children):
                appendMarker(0xA0, count: children.count, to: &bytes)
                for child in children { appendBigEndian(UInt64(child), size: referenceSize, to: &bytes) }
            case .dictionary(let keys, let values):
                appendMarker(0xD0, count: keys.count, to: &bytes)
                for key in keys { appendBigEndian(UInt64(key), size: referenceSize, to: &bytes) }
                for value in values { appendBigEndian(UInt64(value), size: referenceSize, to: &bytes) }
            }
        }

        /// An integer in 1, 2, 4 or 8 bytes; negative values always take 8, as readers expect.
        private static func appendInteger(_ value: Int64, to bytes: inout [UInt8]) {
            let size = value < 0 ? 8 : byteCount(for: UInt64(value))
            bytes.append(0x10 | UInt8(size.trailingZeroBitCount))
            appendBigEndian(UInt64(bitPattern: value), size: size, to: &bytes)
        }

        /// A type marker with a count: in its low four bits below 15, else as an integer after it.
        private static func appendMarker(_ marker: UInt8, count: Int, to bytes: inout [UInt8]) {
            if count < 15 {
                bytes.append(marker | UInt8(count))
            } else {
                bytes.append(marker | 0x0F)
                appendInteger(Int64(count), to: &bytes)
            }
        }

        /// The fewest of 1, 2, 4 or 8 bytes that hold `value`.
        private static func byteCount(for value: UInt64) -> Int {
            switch value {
            case ..<0x100: 1
            case ..<0x1_0000: 2
            case ..<0x1_0000_0000: 4
            default: 8
            }
        }

        private static func appendBigEndian(_ value: UInt64, size: Int, to bytes: inout [UInt8]) {
            for shift in stride(from: (size - 1) * 8, through: 0, by: -8) {
                bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift)))
            }
        }
    }
}

/// Data hashed over all its bytes: `Data`'s own hash looks at a prefix only, so many values
/// that share one would all collide, and finding each would compare them all.
private struct ExactBytes: Hashable {
    let data: Data

    func hash(into hasher: inout Hasher) {
        data.withUnsafeBytes { hasher.combine(bytes: $0) }
    }
}
