/// One D-Bus message: a method call sent, or a reply, error or signal received.
struct DBusMessage {
    enum Kind: UInt8 {
        case methodCall = 1
        case methodReturn = 2
        case error = 3
        case signal = 4
    }

    /// The header fields this client reads or writes.
    enum Field: UInt8 {
        case path = 1
        case interface = 2
        case member = 3
        case errorName = 4
        case replySerial = 5
        case destination = 6
        case signature = 8
    }

    /// The most a message may take: a reply holds at most one secret, and secrets are kept to
    /// 1 MiB (``SecretService/maximumSecretLength``).
    static let maximumLength = 1 << 22
    /// The fixed start of a message: byte order, kind, flags, version, body length, serial and
    /// the length of the header fields' array.
    static let fixedLength = 16

    var kind: Kind
    var serial: UInt32
    var fields: [Field: DBusValue]
    var body: [DBusValue]

    /// A call of `member` on the object at `path`. Its flags are 0: the bus may start an
    /// activatable service (a desktop's keyring daemon) to answer it.
    static func call(
        serial: UInt32, destination: String, path: String, interface: String, member: String, body: [DBusValue]
    ) -> DBusMessage {
        var fields: [Field: DBusValue] = [
            .destination: .string(destination), .path: .objectPath(path), .interface: .string(interface),
            .member: .string(member),
        ]
        if !body.isEmpty { fields[.signature] = .signature(body.map(\.signature).joined()) }
        return DBusMessage(kind: .methodCall, serial: serial, fields: fields, body: body)
    }

    func encoded() throws(DBusWireError) -> [UInt8] {
        var body = DBusWriter()
        for value in self.body { try body.write(value) }
        let entries = fields.sorted { $0.key.rawValue < $1.key.rawValue }.map {
            DBusValue.structure([.byte($0.key.rawValue), .variant($0.value)])
        }
        var header = DBusWriter()
        for byte in [UInt8(ascii: "l"), kind.rawValue, 0, 1] { try header.write(.byte(byte)) }
        try header.write(.uint32(UInt32(body.bytes.count)))
        try header.write(.uint32(serial))
        try header.write(.array(element: "(yv)", entries))
        header.align(8)
        return header.bytes + body.bytes
    }

    /// The whole length of the message that starts with `prefix` (``fixedLength`` bytes).
    static func length(from prefix: [UInt8]) throws(DBusWireError) -> Int {
        guard prefix.count >= fixedLength else { throw .malformed("a message shorter than its header") }
        let littleEndian = try byteOrder(prefix[0])
        var reader = DBusReader(prefix, from: 4, littleEndian: littleEndian)
        let bodyLength = Int(try reader.uint32())
        _ = try reader.uint32()
        let fieldsLength = Int(try reader.uint32())
        let headerLength = (fixedLength + fieldsLength + 7) / 8 * 8
        guard bodyLength <= maximumLength, fieldsLength <= maximumLength, headerLength + bodyLength <= maximumLength
        else { throw .malformed("a message longer than \(maximumLength) bytes") }
        return headerLength + bodyLength
    }

    /// The message in `bytes`, the whole of it.
    init(decoding bytes: [UInt8]) throws(DBusWireError) {
        guard bytes.count == (try Self.length(from: bytes)) else { throw .malformed("a message of the wrong length") }
        let littleEndian = try Self.byteOrder(bytes[0])
        guard let kind = Kind(rawValue: bytes[1]) else { throw .malformed("the message kind \(bytes[1])") }
        guard bytes[3] == 1 else { throw .malformed("the protocol version \(bytes[3])") }
        var header = DBusReader(bytes, from: 0, littleEndian: littleEndian)
        for _ in 0..<4 { _ = try header.read("y") }
        let bodyLength = Int(try header.uint32())
        let serial = try header.uint32()
        guard case .array(_, let entries) = try header.read("a(yv)") else { throw .malformed("no header fields") }
        var fields: [Field: DBusValue] = [:]
        for entry in entries {
            guard case .structure(let pair) = entry, pair.count == 2, case .byte(let code) = pair[0],
                case .variant(let value) = pair[1]
            else { throw .malformed("a header field that is no (yv)") }
            if let field = Field(rawValue: code) { fields[field] = value }
        }
        try header.align(8)
        let bodyStart = header.offset
        guard bodyStart + bodyLength == bytes.count else { throw .malformed("a body of the wrong length") }
        var body: [DBusValue] = []
        if case .signature(let signature) = fields[.signature] {
            var reader = DBusReader(bytes, from: bodyStart, littleEndian: littleEndian)
            for type in try DBusSignature.completeTypes(signature) { body.append(try reader.read(type)) }
            guard reader.isAtEnd else { throw .malformed("bytes after the body") }
        } else if bodyLength != 0 {
            throw .malformed("a body without a signature")
        }
        self.init(kind: kind, serial: serial, fields: fields, body: body)
    }

    private init(kind: Kind, serial: UInt32, fields: [Field: DBusValue], body: [DBusValue]) {
        self.kind = kind
        self.serial = serial
        self.fields = fields
        self.body = body
    }

    private static func byteOrder(_ byte: UInt8) throws(DBusWireError) -> Bool {
        switch byte {
        case UInt8(ascii: "l"): true
        case UInt8(ascii: "B"): false
        default: throw .malformed("the byte order \(byte)")
        }
    }

    /// The serial of the call this message answers.
    var replySerial: UInt32? {
        guard case .uint32(let serial) = fields[.replySerial] else { return nil }
        return serial
    }

    /// The error's name (`org.freedesktop.Secret.Error.IsLocked`) and message.
    var errorDescription: (name: String, message: String) {
        guard case .string(let name) = fields[.errorName] else { return ("an unnamed error", "") }
        guard case .string(let message) = body.first else { return (name, "") }
        return (name, message)
    }
}
