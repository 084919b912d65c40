/// Marshalling of D-Bus values, little-endian, with each value aligned from the start of the
/// header or the body (both start on an 8-byte boundary).
struct DBusWriter {
    private(set) var bytes: [UInt8] = []

    mutating func align(_ boundary: Int) {
        while bytes.count % boundary != 0 { bytes.append(0) }
    }

    private mutating func append<Integer: FixedWidthInteger>(_ value: Integer) {
        align(MemoryLayout<Integer>.size)
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    mutating func write(_ value: DBusValue) throws(DBusWireError) {
        switch value {
        case .byte(let byte): bytes.append(byte)
        case .boolean(let flag): append(UInt32(flag ? 1 : 0))
        case .int16(let number): append(number)
        case .uint16(let number): append(number)
        case .int32(let number): append(number)
        case .uint32(let number): append(number)
        case .int64(let number): append(number)
        case .uint64(let number): append(number)
        case .double(let number): append(number.bitPattern)
        case .unixFD(let index): append(index)
        case .string(let text), .objectPath(let text):
            guard !text.utf8.contains(0) else { throw .malformed("a string holding a NUL") }
            append(UInt32(text.utf8.count))
            bytes.append(contentsOf: text.utf8)
            bytes.append(0)
        case .signature(let text):
            guard text.utf8.count <= DBusSignature.maximumLength else { throw .malformed("a signature too long") }
            bytes.append(UInt8(text.utf8.count))
            bytes.append(contentsOf: text.utf8)
            bytes.append(0)
        case .variant(let inner):
            try write(.signature(inner.signature))
            try write(inner)
        case .array(let element, let elements):
            append(UInt32(0))
            let lengthAt = bytes.count - 4
            align(DBusSignature.alignment(of: element.first ?? "y"))
            let start = bytes.count
            for element in elements { try write(element) }
            let length = UInt32(bytes.count - start)
            withUnsafeBytes(of: length.littleEndian) { bytes.replaceSubrange(lengthAt..<lengthAt + 4, with: $0) }
        case .dictEntry(let key, let value):
            align(8)
            try write(key)
            try write(value)
        case .structure(let fields):
            align(8)
            for field in fields { try write(field) }
        }
    }
}

/// Unmarshalling of D-Bus values in either byte order, bounded: every length is checked
/// against the bytes there are, so a hostile or broken peer gets an error, never a crash.
struct DBusReader {
    let bytes: [UInt8]
    private(set) var offset: Int
    let littleEndian: Bool
    /// Where alignment counts from: the start of the header or the body.
    let origin: Int

    init(_ bytes: [UInt8], from offset: Int = 0, littleEndian: Bool) {
        self.bytes = bytes
        self.offset = offset
        self.littleEndian = littleEndian
        origin = offset
    }

    var isAtEnd: Bool { offset >= bytes.count }

    mutating func align(_ boundary: Int) throws(DBusWireError) {
        let padding = (boundary - (offset - origin) % boundary) % boundary
        guard offset + padding <= bytes.count else { throw .malformed("padding past the end") }
        guard bytes[offset..<offset + padding].allSatisfy({ $0 == 0 }) else {
            throw .malformed("padding that is not zero")
        }
        offset += padding
    }

    private mutating func integer<Integer: FixedWidthInteger>(_ type: Integer.Type) throws(DBusWireError) -> Integer {
        let size = MemoryLayout<Integer>.size
        try align(size)
        guard offset + size <= bytes.count else { throw .malformed("a number past the end") }
        var value: Integer = 0
        for index in 0..<size {
            let byte = Integer(truncatingIfNeeded: bytes[offset + (littleEndian ? index : size - 1 - index)])
            value |= byte << (8 * index)
        }
        offset += size
        return value
    }

    mutating func uint32() throws(DBusWireError) -> UInt32 { try integer(UInt32.self) }

    private mutating func text(length: Int) throws(DBusWireError) -> String {
        guard length >= 0, offset + length < bytes.count, bytes[offset + length] == 0 else {
            throw .malformed("a string past the end or not ended by NUL")
        }
        let slice = bytes[offset..<offset + length]
        guard !slice.contains(0), let text = String(validating: slice, as: UTF8.self) else {
            throw .malformed("a string that is not UTF-8")
        }
        offset += length + 1
        return text
    }

    /// A value of the single complete type `type`.
    mutating func read(_ type: Substring, depth: Int = 0) throws(DBusWireError) -> DBusValue {
        guard depth <= 64 else { throw .malformed("values nest more than 64 deep") }
        guard let code = type.first else { throw .malformed("an empty type") }
        switch code {
        case "y":
            guard offset < bytes.count else { throw .malformed("a byte past the end") }
            offset += 1
            return .byte(bytes[offset - 1])
        case "b":
            switch try integer(UInt32.self) {
            case 0: return .boolean(false)
            case 1: return .boolean(true)
            default: throw .malformed("a boolean that is neither 0 nor 1")
            }
        case "n": return .int16(try integer(Int16.self))
        case "q": return .uint16(try integer(UInt16.self))
        case "i": return .int32(try integer(Int32.self))
        case "u": return .uint32(try integer(UInt32.self))
        case "x": return .int64(try integer(Int64.self))
        case "t": return .uint64(try integer(UInt64.self))
        case "d": return .double(Double(bitPattern: try integer(UInt64.self)))
        case "h": return .unixFD(try integer(UInt32.self))
        case "s": return .string(try text(length: Int(try integer(UInt32.self))))
        case "o": return .objectPath(try text(length: Int(try integer(UInt32.self))))
        case "g": return .signature(try signatureText())
        case "v":
            let signature = try signatureText()
            let types = try DBusSignature.completeTypes(signature)
            guard types.count == 1, let inner = types.first else {
                throw .malformed("a variant of \(types.count) types")
            }
            return .variant(try read(inner, depth: depth + 1))
        case "a":
            let length = Int(try integer(UInt32.self))
            guard length <= 1 << 26 else { throw .malformed("an array longer than 64 MiB") }
            let element = type.dropFirst()
            try align(DBusSignature.alignment(of: element.first ?? "y"))
            let end = offset + length
            guard end <= bytes.count else { throw .malformed("an array past the end") }
            var elements: [DBusValue] = []
            while offset < end { elements.append(try read(element, depth: depth + 1)) }
            guard offset == end else { throw .malformed("an array whose elements overrun its length") }
            return .array(element: String(element), elements)
        case "{":
            try align(8)
            let inner = try DBusSignature.completeTypes(String(type.dropFirst().dropLast()))
            guard inner.count == 2 else { throw .malformed("a dictionary entry of \(inner.count)") }
            return .dictEntry(try read(inner[0], depth: depth + 1), try read(inner[1], depth: depth + 1))
        case "(":
            try align(8)
            var fields: [DBusValue] = []
            for field in try DBusSignature.completeTypes(String(type.dropFirst().dropLast())) {
                fields.append(try read(field, depth: depth + 1))
            }
            return .structure(fields)
        default:
            throw .malformed("the type code \(code)")
        }
    }

    private mutating func signatureText() throws(DBusWireError) -> String {
        guard offset < bytes.count else { throw .malformed("a signature past the end") }
        let length = Int(bytes[offset])
        offset += 1
        return try text(length: length)
    }
}
