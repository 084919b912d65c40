import Foundation
import TypedDefaults

// Generators for the property-list scalars and the standard types stored as one.

extension Bool: RoundTripValue {
    static func generate(_ draw: inout Draw) -> Bool { draw.chance(0.5) }
    var fingerprint: String { description }
}

/// Integers at and near their ends, small ones, and random ones of every magnitude.
extension RoundTripValue where Self: FixedWidthInteger {
    static func generate(_ draw: inout Draw) -> Self {
        switch draw.int(0...9) {
        case 0: return .min
        case 1: return .max
        case 2: return .min + Self(truncatingIfNeeded: draw.int(1...3))
        case 3: return .max - Self(truncatingIfNeeded: draw.int(1...3))
        case 4: return draw.pick([0, 1, Self.isSigned ? -1 : 2])
        case 5: return Self(truncatingIfNeeded: draw.int(-300...300))
        default:
            // Two draws fill Int128; narrower types keep the low bits.
            let bits = (Self(truncatingIfNeeded: draw.bits()) << 64) | Self(truncatingIfNeeded: draw.bits())
            return bits >> draw.int(0...(Self.bitWidth - 1))
        }
    }

    var fingerprint: String { description }
}

extension Int: RoundTripBound {}
extension Int8: RoundTripBound {}
extension Int16: RoundTripValue {}
extension Int32: RoundTripValue {}
extension Int64: RoundTripValue {}
extension UInt: RoundTripValue {}
extension UInt8: RoundTripValue {}
extension UInt16: RoundTripValue {}
extension UInt32: RoundTripValue {}
extension UInt64: RoundTripBound {}

@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
extension Int128: RoundTripBound {}

@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
extension UInt128: RoundTripValue {}

extension Double: RoundTripBound {
    static func generate(_ draw: inout Draw) -> Double {
        switch draw.int(0...9) {
        case 0:
            return draw.pick([
                .nan, -.nan, .signalingNaN, .infinity, -.infinity, 0, -0.0, .leastNonzeroMagnitude,
                -.leastNonzeroMagnitude, .leastNormalMagnitude, .leastNormalMagnitude.nextDown,
                .greatestFiniteMagnitude,
                -.greatestFiniteMagnitude, .ulpOfOne, 1, -1, .pi, 0.1, 9_007_199_254_740_992.nextUp, 1e21, 1e-7,
            ])
        case 1: return Double(bitPattern: draw.bits() & 0x800F_FFFF_FFFF_FFFF)  // subnormal or zero, either sign
        case 2: return Double(bitPattern: draw.bits())  // anything, NaN payloads included
        case 3: return Double(draw.int(-1_000_000...1_000_000)) / 100
        case 4: return Double(Int64(truncatingIfNeeded: draw.bits()) >> draw.int(0...63))
        default: return finite(&draw)
        }
    }

    /// Any finite value, spread over every exponent.
    static func finite(_ draw: inout Draw) -> Double {
        let value = Double(bitPattern: draw.bits())
        return value.isFinite ? value : Double(bitPattern: draw.bits() & 0xBFFF_FFFF_FFFF_FFFF)
    }

    /// Never NaN, so it can bound a range.
    static func generateBound(_ draw: inout Draw) -> Double {
        let value = generate(&draw)
        return value.isNaN ? finite(&draw) : value
    }

    var fingerprint: String { Fingerprint.real(self) }
}

extension Float: RoundTripValue {
    static func generate(_ draw: inout Draw) -> Float {
        switch draw.int(0...7) {
        case 0:
            return draw.pick([
                .nan, .signalingNaN, .infinity, -.infinity, 0, -0.0, .leastNonzeroMagnitude, -.leastNormalMagnitude,
                .greatestFiniteMagnitude, 0.1, 16_777_216, 1 / 3,
            ])
        case 1: return Float(bitPattern: UInt32(truncatingIfNeeded: draw.bits()) & 0x807F_FFFF)
        case 2: return Float(bitPattern: UInt32(truncatingIfNeeded: draw.bits()))
        default:
            let value = Float(bitPattern: UInt32(truncatingIfNeeded: draw.bits()))
            return value.isFinite ? value : Float(draw.int(-100_000...100_000)) / 64
        }
    }

    var fingerprint: String { Fingerprint.real(self) }
}

extension String: RoundTripBound {
    static func generate(_ draw: inout Draw) -> String { RoundTripText.string(&draw) }
    var fingerprint: String { Fingerprint.text(self) }
}

extension Character: RoundTripBound {
    static func generate(_ draw: inout Draw) -> Character { RoundTripText.character(&draw) }
    var fingerprint: String { Fingerprint.text(String(self)) }
}

extension Data: RoundTripValue {
    static func generate(_ draw: inout Draw) -> Data {
        let count: Int
        switch draw.int(0...9) {
        case 0: count = 0
        case 1...4: count = draw.int(1...16)
        case 5...7: count = draw.int(17...512)
        case 8: count = draw.int(513...4_096)
        default: count = draw.depth == 0 && draw.chance(0.2) ? draw.int(16_384...65_536) : draw.int(1...64)
        }
        var bytes = [UInt8]()
        bytes.reserveCapacity(count)
        switch draw.int(0...5) {
        case 0: bytes = [UInt8](repeating: 0, count: count)
        case 1: bytes = Array(("bplist00".utf8 + [UInt8](repeating: 0xFF, count: count)).prefix(Swift.max(count, 8)))
        default:
            while bytes.count < count {
                Swift.withUnsafeBytes(of: draw.bits()) { bytes.append(contentsOf: $0.prefix(count - bytes.count)) }
            }
        }
        return Data(bytes)
    }

    var fingerprint: String { Fingerprint.data(self) }
}

extension Date: RoundTripBound {
    static func generate(_ draw: inout Draw) -> Date {
        let seconds: Double
        switch draw.int(0...7) {
        case 0: seconds = draw.pick([Date.distantPast, .distantFuture]).timeIntervalSinceReferenceDate
        case 1: seconds = draw.pick([0, -0.0, 0.5, -0.5, .leastNonzeroMagnitude, 1e-9, 978_307_200, -978_307_200])
        // Years before the common era, and far into the future.
        case 2: seconds = -Double(draw.int(63_114_076_800...6_311_390_400_000)) - Double(draw.int(0...999)) / 1000
        case 3: seconds = Double(draw.int(63_113_904_000...6_311_390_400_000)) + Double(draw.int(0...999)) / 1000
        // Fractions of every precision, around now.
        case 4:
            seconds = Double(draw.int(-1_000_000_000...2_000_000_000)) + Double.random(in: 0..<1, using: &draw.random)
        case 5: seconds = Double(bitPattern: draw.bits() & 0x800F_FFFF_FFFF_FFFF)
        default:
            let value = Double.finite(&draw)
            seconds = abs(value) < 1e15 ? value : value.truncatingRemainder(dividingBy: 1e15)
        }
        return Date(timeIntervalSinceReferenceDate: seconds)
    }

    var fingerprint: String { "@" + Fingerprint.real(timeIntervalSinceReferenceDate) }
}

extension UUID: RoundTripValue {
    static func generate(_ draw: inout Draw) -> UUID {
        var uuid = UUID().uuid
        let pattern = draw.int(0...5)
        withUnsafeMutableBytes(of: &uuid) { bytes in
            for index in bytes.indices {
                bytes[index] = pattern == 0 ? 0 : pattern == 1 ? 0xFF : UInt8(truncatingIfNeeded: draw.bits())
            }
        }
        return UUID(uuid: uuid)
    }

    var fingerprint: String { uuidString }
}

extension Decimal: RoundTripBound {
    private static let posix = Locale(identifier: "en_US_POSIX")

    static func generate(_ draw: inout Draw) -> Decimal {
        switch draw.int(0...9) {
        case 0:
            return draw.pick([
                .nan, .greatestFiniteMagnitude, .leastFiniteMagnitude, .leastNonzeroMagnitude,
                -Decimal.leastNonzeroMagnitude,
                0, 1, -1, Decimal(string: "0.1", locale: posix) ?? 0, Decimal(UInt64.max), Decimal(Int64.min),
            ])
        case 1: return Decimal(Double.finite(&draw))
        default:
            // Up to 38 significant digits (what a Decimal holds), any exponent it takes.
            let digits = (0..<draw.int(1...38)).map { _ in String(draw.int(0...9)) }.joined()
            let text = (draw.chance(0.4) ? "-" : "") + digits + "e" + String(draw.int(-128...(127 - 38)))
            return Decimal(string: text, locale: posix) ?? 0
        }
    }

    static func generateBound(_ draw: inout Draw) -> Decimal {
        let value = generate(&draw)
        return value.isNaN ? 0 : value
    }

    /// The exact text the library stores and promises to read back (`"NaN"` for NaN).
    var fingerprint: String { isNaN ? "NaN" : description }
}
