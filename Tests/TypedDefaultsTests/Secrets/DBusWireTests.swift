import Foundation
import Testing

@testable import TypedDefaultsSecrets

/// What crosses the session bus: a message is read back as written, and bytes from a broken or
/// hostile peer are refused with an error, never a crash or a read past the end.
@Suite struct DBusWireTests {
    static let secret = DBusValue.structure([
        .objectPath("/org/freedesktop/secrets/session/s1"), .bytes([]), .bytes(Array("hunter2".utf8)),
        .string("text/plain"),
    ])

    static func message() throws -> [UInt8] {
        try DBusMessage.call(
            serial: 7, destination: "org.freedesktop.secrets", path: "/org/freedesktop/secrets/collection/login",
            interface: "org.freedesktop.Secret.Collection", member: "CreateItem",
            body: [
                .array(
                    element: "{sv}",
                    [.dictEntry(.string("org.freedesktop.Secret.Item.Label"), .variant(.string("token (app)")))]),
                secret, .boolean(true), .stringDictionary(["service": "app", "account": "token"]),
                .array(element: "ao", [.array(element: "o", [.objectPath("/a")]), .array(element: "o", [])]),
                .int64(-5), .double(2.5), .uint16(9), .byte(1),
            ]
        ).encoded()
    }

    @Test func aMessageReadsBackAsWritten() throws {
        let bytes = try Self.message()
        #expect(bytes.count == (try DBusMessage.length(from: Array(bytes.prefix(16)))))
        let message = try DBusMessage(decoding: bytes)
        #expect(message.serial == 7 && message.kind == .methodCall)
        #expect(message.fields[.member] == .string("CreateItem"))
        #expect(message.body.count == 9)
        #expect(message.body[1] == Self.secret)
        #expect(message.body[1].signature == "(oayays)")
        #expect(try message.encoded() == bytes)
    }

    @Test func everyTruncationIsRefused() throws {
        let bytes = try Self.message()
        for length in 0..<bytes.count {
            #expect(throws: DBusWireError.self) { try DBusMessage(decoding: Array(bytes.prefix(length))) }
        }
    }

    /// Every single byte changed to each of a few values: read or refused, never a crash.
    @Test func changedBytesAreReadOrRefused() throws {
        let bytes = try Self.message()
        var refused = 0
        for index in bytes.indices {
            for value: UInt8 in [0, 1, 0x7f, 0x80, 0xff, UInt8(ascii: "("), UInt8(ascii: "a"), UInt8(ascii: "v")] {
                var changed = bytes
                changed[index] = value
                if (try? DBusMessage(decoding: changed)) == nil { refused += 1 }
            }
        }
        #expect(refused > 0)
    }

    @Test func malformedSignaturesAndLengthsAreRefused() {
        #expect(throws: DBusWireError.self) { try DBusSignature.completeTypes(String(repeating: "a", count: 33) + "y") }
        #expect(throws: DBusWireError.self) { try DBusSignature.completeTypes(String(repeating: "(", count: 33)) }
        #expect(throws: DBusWireError.self) { try DBusSignature.completeTypes("a{vs}") }
        #expect(throws: DBusWireError.self) { try DBusSignature.completeTypes("()") }
        #expect(throws: DBusWireError.self) { try DBusSignature.completeTypes("(ss") }
        // An array that claims more bytes than there are, and a string without its NUL.
        var reader = DBusReader([0xff, 0xff, 0xff, 0x00, 1, 2], littleEndian: true)
        #expect(throws: DBusWireError.self) { try reader.read("ay") }
        var text = DBusReader([3, 0, 0, 0, 0x61, 0x62, 0x63, 0x64], littleEndian: true)
        #expect(throws: DBusWireError.self) { try text.read("s") }
        // A message that claims to be longer than any reply here.
        var header: [UInt8] = [UInt8(ascii: "l"), 2, 0, 1, 0xff, 0xff, 0xff, 0x7f, 1, 0, 0, 0, 0, 0, 0, 0]
        #expect(throws: DBusWireError.self) { try DBusMessage.length(from: header) }
        header[0] = UInt8(ascii: "x")
        #expect(throws: DBusWireError.self) { try DBusMessage.length(from: header) }
    }

    @Test func aBigEndianReplyReads() throws {
        // A method return of serial 1 to serial 9, body "s" = "ok", written big-endian.
        var writer: [UInt8] = [UInt8(ascii: "B"), 2, 0, 1, 0, 0, 0, 7, 0, 0, 0, 1]
        let fields: [UInt8] = [
            5, 1, UInt8(ascii: "u"), 0, 0, 0, 0, 9,  // REPLY_SERIAL 9
            8, 1, UInt8(ascii: "g"), 0, 1, UInt8(ascii: "s"), 0,  // SIGNATURE "s"
        ]
        writer += [0, 0, 0, UInt8(fields.count)] + fields
        while writer.count % 8 != 0 { writer.append(0) }
        writer += [0, 0, 0, 2, UInt8(ascii: "o"), UInt8(ascii: "k"), 0]
        let message = try DBusMessage(decoding: writer)
        #expect(message.kind == .methodReturn && message.replySerial == 9)
        #expect(message.body == [.string("ok")])
    }
}
