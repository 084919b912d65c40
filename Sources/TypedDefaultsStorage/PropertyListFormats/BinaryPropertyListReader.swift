import Foundation

/// Reads a binary property list (`bplist00`): a header, objects, a table of their offsets and a
/// trailer that names the root.
///
/// An object may be referenced any number of times, so a few bytes can describe an enormous
/// value. Before decoding anything, one pass over the objects (each once, in time linear in the
/// file's size) counts what the root would decode to — every element at every reference, and
/// the bytes of its strings and data — and how deep it nests; a file over
/// ``PropertyListReader/Limits`` or with a cycle is refused. Decoding then makes each object once
/// and shares it between its references.
struct BinaryPropertyListReader {
    static let magic = Array("bplist00".utf8)

    private let bytes: [UInt8]
    private let allowingUIDs: Bool
    private var offsetSize = 0
    private var referenceSize = 0
    private var offsets: [Int] = []
    private var tableOffset = 0
    private var root = 0

    init(bytes: [UInt8], allowingUIDs: Bool) {
        self.bytes = bytes
        self.allowingUIDs = allowingUIDs
    }

    /// What one object is, its contents located in the file.
    private enum Object {
        case scalar(Any)
        case string(start: Int, count: Int, utf16: Bool)
        case data(start: Int, count: Int)
        case array(start: Int, count: Int)
        case dictionary(start: Int, count: Int)
    }

    /// What an object decodes to: its elements at every reference, its payload bytes, and the
    /// depth of its nesting. Saturated at the limits, which refuse the file anyway.
    private struct Extent {
        var elements: Int
        var payload: Int
        var depth: Int
    }

    mutating func read() throws(PropertyListFormatError) -> Any {
        try readTrailer()
        var extents = [Extent?](repeating: nil, count: offsets.count)
        var visiting = [Bool](repeating: false, count: offsets.count)
        let extent = try measure(root, depth: 1, &extents, &visiting)
        let limitElements = PropertyListReader.Limits.maximumElements(forFileSize: bytes.count)
        guard extent.elements <= limitElements else {
            throw fail("it decodes to more than \(limitElements) elements, counting each reference to shared objects")
        }
        let limitPayload = PropertyListReader.Limits.maximumPayloadBytes(forFileSize: bytes.count)
        guard extent.payload <= limitPayload else {
            throw fail("its strings and data come to more than \(limitPayload) bytes, counting shared ones at each use")
        }
        var decoded = [Any?](repeating: nil, count: offsets.count)
        return try decode(root, &decoded)
    }

    private func fail(_ reason: String) -> PropertyListFormatError {
        PropertyListFormatError("binary property list: \(reason)")
    }

    // MARK: Layout

    private mutating func readTrailer() throws(PropertyListFormatError) {
        guard bytes.count >= Self.magic.count + 1 + 32 else { throw fail("too short for a header and a trailer") }
        let trailer = bytes.count - 32
        offsetSize = Int(bytes[trailer + 6])
        referenceSize = Int(bytes[trailer + 7])
        guard (1...8).contains(offsetSize), (1...8).contains(referenceSize) else {
            throw fail("offsets of \(offsetSize) bytes or references of \(referenceSize) bytes")
        }
        let count = unsigned(at: trailer + 8, size: 8)
        let top = unsigned(at: trailer + 16, size: 8)
        let table = unsigned(at: trailer + 24, size: 8)
        // Each object takes a byte at least, between the header and the offset table.
        guard count >= 1, table >= UInt64(Self.magic.count), table - UInt64(Self.magic.count) >= count, top < count,
            table <= UInt64(trailer), (UInt64(trailer) - table) / UInt64(offsetSize) >= count
        else { throw fail("its trailer names \(count) objects, root \(top), offset table at \(table)") }
        tableOffset = Int(table)
        root = Int(top)
        offsets.reserveCapacity(Int(count))
        for index in 0..<Int(count) {
            let offset = unsigned(at: tableOffset + index * offsetSize, size: offsetSize)
            guard offset >= UInt64(Self.magic.count), offset < table else {
                throw fail("object \(index) is said to start at \(offset), outside the objects")
            }
            offsets.append(Int(offset))
        }
    }

    /// A big-endian unsigned integer of `size` bytes at `offset`; the caller checked the range.
    private func unsigned(at offset: Int, size: Int) -> UInt64 {
        var value: UInt64 = 0
        for index in offset..<(offset + size) { value = value << 8 | UInt64(bytes[index]) }
        return value
    }

    /// Checks that `count` bytes from `start` lie within the objects.
    private func require(_ start: Int, _ count: Int, _ index: Int) throws(PropertyListFormatError) {
        guard count >= 0, start <= tableOffset, count <= tableOffset - start else {
            throw fail("object \(index) runs past the objects")
        }
    }

    /// The object at `index`: its kind and where its contents are.
    private func object(_ index: Int) throws(PropertyListFormatError) -> Object {
        let offset = offsets[index]
        let marker = bytes[offset]
        let low = Int(marker & 0x0F)
        switch marker >> 4 {
        case 0x0:
            switch marker {
            case 0x08: return .scalar(false)
            case 0x09: return .scalar(true)
            default: throw fail("object \(index) is a null or fill byte (\(marker)), which a property list cannot hold")
            }
        case 0x1:
            let size = 1 << low
            try require(offset + 1, size, index)
            return .scalar(try integer(at: offset + 1, size: size, index))
        case 0x2:
            guard low == 2 || low == 3 else { throw fail("object \(index) is a real of \(1 << low) bytes") }
            try require(offset + 1, 1 << low, index)
            let bits = unsigned(at: offset + 1, size: 1 << low)
            let value = low == 2 ? Double(Float(bitPattern: UInt32(bits))) : Double(bitPattern: bits)
            return .scalar(value)
        case 0x3:
            guard marker == 0x33 else { throw fail("object \(index) is a date of an unknown size") }
            try require(offset + 1, 8, index)
            return .scalar(Date(timeIntervalSinceReferenceDate: Double(bitPattern: unsigned(at: offset + 1, size: 8))))
        case 0x4:
            let (start, count) = try counted(offset, low, index)
            try require(start, count, index)
            return .data(start: start, count: count)
        case 0x5, 0x6:
            let (start, count) = try counted(offset, low, index)
            let utf16 = marker >> 4 == 0x6
            try require(start, utf16 ? count.multipliedReportingOverflow(by: 2).partialValue : count, index)
            return .string(start: start, count: count, utf16: utf16)
        case 0x8:
            guard allowingUIDs else { throw fail("object \(index) is an archiver UID, which a suite cannot hold") }
            try require(offset + 1, low + 1, index)
            return .scalar(ArchiveUID(value: unsigned(at: offset + 1, size: low + 1)))
        case 0xA:
            let (start, count) = try counted(offset, low, index)
            try require(start, count.multipliedReportingOverflow(by: referenceSize).partialValue, index)
            return .array(start: start, count: count)
        case 0xD:
            let (start, count) = try counted(offset, low, index)
            try require(start, count.multipliedReportingOverflow(by: 2 * referenceSize).partialValue, index)
            return .dictionary(start: start, count: count)
        default:
            throw fail(
                "object \(index) has the type marker \(String(marker, radix: 16)), which a property list cannot hold")
        }
    }

    /// An integer object's value: 1, 2 and 4 bytes unsigned, 8 signed, 16 for values beyond.
    private func integer(at offset: Int, size: Int, _ index: Int) throws(PropertyListFormatError) -> Any {
        switch size {
        case 1, 2, 4: return Int(unsigned(at: offset, size: size))
        case 8: return Int(Int64(bitPattern: unsigned(at: offset, size: 8)))
        case 16:
            let high = unsigned(at: offset, size: 8)
            let low = unsigned(at: offset + 8, size: 8)
            if high == 0 { return low <= UInt64(Int64.max) ? Int(low) as Any : low as Any }
            if high == .max, Int64(bitPattern: low) < 0 { return Int(Int64(bitPattern: low)) }
            throw fail("object \(index) is an integer beyond 64 bits")
        default:
            throw fail("object \(index) is an integer of \(size) bytes")
        }
    }

    /// Where a counted object's contents start and its count: in the marker's low bits, or
    /// (15) in an integer object after it.
    private func counted(_ offset: Int, _ low: Int, _ index: Int) throws(PropertyListFormatError) -> (Int, Int) {
        guard low == 0x0F else { return (offset + 1, low) }
        try require(offset + 1, 1, index)
        let marker = bytes[offset + 1]
        guard marker >> 4 == 0x1, marker & 0x0F <= 3 else { throw fail("object \(index) has a malformed count") }
        let size = 1 << Int(marker & 0x0F)
        try require(offset + 2, size, index)
        let count = unsigned(at: offset + 2, size: size)
        guard count <= UInt64(tableOffset) else { throw fail("object \(index) counts \(count) items") }
        return (offset + 2 + size, Int(count))
    }

    private func reference(at offset: Int) throws(PropertyListFormatError) -> Int {
        let value = unsigned(at: offset, size: referenceSize)
        guard value < UInt64(offsets.count) else { throw fail("a reference to object \(value), which does not exist") }
        return Int(value)
    }

    // MARK: Measuring

    /// What `index` decodes to, each object measured once. `depth` is the nesting of the path
    /// that reached it, so the recursion stops at the depth limit before any result is known,
    /// and an object measured before is checked against the path that reaches it now.
    private func measure(
        _ index: Int, depth: Int, _ extents: inout [Extent?], _ visiting: inout [Bool]
    ) throws(PropertyListFormatError) -> Extent {
        let limit = PropertyListReader.Limits.maximumDepth
        if let known = extents[index] {
            guard depth - 1 + known.depth <= limit else { throw fail("it nests deeper than \(limit) levels") }
            return known
        }
        guard !visiting[index] else { throw fail("object \(index) contains itself") }
        var extent = Extent(elements: 1, payload: 0, depth: 1)
        let children: (start: Int, count: Int)
        switch try object(index) {
        case .scalar:
            children = (0, 0)
        case .string(_, let count, let utf16):
            extent.payload = utf16 ? count * 2 : count
            children = (0, 0)
        case .data(_, let count):
            extent.payload = count
            children = (0, 0)
        case .array(let start, let count):
            children = (start, count)
        case .dictionary(let start, let count):
            children = (start, count * 2)
        }
        if children.count > 0 {
            guard depth < limit else { throw fail("it nests deeper than \(limit) levels") }
            visiting[index] = true
            for position in 0..<children.count {
                let child = try reference(at: children.start + position * referenceSize)
                let inner = try measure(child, depth: depth + 1, &extents, &visiting)
                extent.elements = Self.saturatingSum(extent.elements, inner.elements)
                extent.payload = Self.saturatingSum(extent.payload, inner.payload)
                extent.depth = max(extent.depth, inner.depth + 1)
            }
            visiting[index] = false
        }
        extents[index] = extent
        return extent
    }

    private static func saturatingSum(_ first: Int, _ second: Int) -> Int {
        let (sum, overflow) = first.addingReportingOverflow(second)
        return overflow ? .max : sum
    }

    // MARK: Decoding

    /// The object at `index`, decoded once and shared by every reference to it.
    private func decode(_ index: Int, _ decoded: inout [Any?]) throws(PropertyListFormatError) -> Any {
        if let known = decoded[index] { return known }
        let value: Any
        switch try object(index) {
        case .scalar(let scalar):
            value = scalar
        case .data(let start, let count):
            value = Data(bytes[start..<(start + count)])
        case .string(let start, let count, let utf16):
            value = try string(start: start, count: count, utf16: utf16, index)
        case .array(let start, let count):
            var elements: [Any] = []
            elements.reserveCapacity(count)
            for position in 0..<count {
                elements.append(try decode(try reference(at: start + position * referenceSize), &decoded))
            }
            value = elements
        case .dictionary(let start, let count):
            var builder = DictionaryBuilder(capacity: count)
            for position in 0..<count {
                let keyIndex = try reference(at: start + position * referenceSize)
                guard let key = try decode(keyIndex, &decoded) as? String else {
                    throw fail("object \(index) is a dictionary with a key that is no string")
                }
                let valueIndex = try reference(at: start + (count + position) * referenceSize)
                builder.add(key, try decode(valueIndex, &decoded))
            }
            value = builder.build()
        }
        decoded[index] = value
        return value
    }

    /// An ASCII or UTF-16 string; one that is not valid (a byte above 127, a lone surrogate) is
    /// refused rather than read with replacement characters, which would change it.
    private func string(start: Int, count: Int, utf16: Bool, _ index: Int) throws(PropertyListFormatError) -> String {
        guard utf16 else {
            let slice = bytes[start..<(start + count)]
            guard slice.allSatisfy({ $0 < 0x80 }) else {
                throw fail("object \(index) is an ASCII string with other bytes")
            }
            return String(decoding: slice, as: UTF8.self)
        }
        var units: [UInt16] = []
        units.reserveCapacity(count)
        for position in 0..<count {
            units.append(UInt16(bytes[start + 2 * position]) << 8 | UInt16(bytes[start + 2 * position + 1]))
        }
        guard let string = PropertyListReader.utf16String(units) else {
            throw fail("object \(index) is a UTF-16 string with a lone surrogate")
        }
        return string
    }
}
