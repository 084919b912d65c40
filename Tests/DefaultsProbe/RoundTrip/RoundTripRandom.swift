/// A seeded random generator: the same seed gives the same values in every process, so a
/// fresh process can regenerate what an earlier one wrote and compare.
///
/// xoshiro256** seeded through SplitMix64; `Hasher` is not used anywhere (it is seeded anew in
/// each process).
struct SeededGenerator: RandomNumberGenerator {
    private var state: (UInt64, UInt64, UInt64, UInt64)

    init(seed: UInt64) {
        var mix = seed
        func next() -> UInt64 {
            mix &+= 0x9E37_79B9_7F4A_7C15
            var z = mix
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        state = (next(), next(), next(), next())
    }

    /// A generator for one item of a larger run: independent of every other item's.
    init(seed: UInt64, stream: String, index: Int) {
        self.init(seed: seed ^ Self.fnv1a(stream) ^ (UInt64(truncatingIfNeeded: index) &* 0xD134_2543_DE82_EF95))
    }

    mutating func next() -> UInt64 {
        let result = rotate(state.1 &* 5, 7) &* 9
        let shifted = state.1 << 17
        state.2 ^= state.0
        state.3 ^= state.1
        state.1 ^= state.2
        state.0 ^= state.3
        state.2 ^= shifted
        state.3 = rotate(state.3, 45)
        return result
    }

    private func rotate(_ value: UInt64, _ count: UInt64) -> UInt64 {
        (value << count) | (value >> (64 - count))
    }

    /// A stable hash of a name (FNV-1a over its UTF-8 bytes).
    static func fnv1a(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in text.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
        }
        return hash
    }
}

/// What a generator draws from: the random source, and how deep inside a collection the value
/// being made sits (deeper values are kept smaller).
struct Draw {
    var random: SeededGenerator
    var depth = 0
    /// Whether a stored value's dictionary may hold both spellings of a canonical twin as two
    /// keys (not in objects made for `NSDictionary` or `[String: Any]`, which hold one).
    var twinKeys = true

    init(_ random: SeededGenerator) {
        self.random = random
    }

    mutating func chance(_ probability: Double) -> Bool {
        Double.random(in: 0..<1, using: &random) < probability
    }

    mutating func int(_ range: ClosedRange<Int>) -> Int {
        Int.random(in: range, using: &random)
    }

    mutating func pick<Element>(_ choices: [Element]) -> Element {
        choices[int(0...(choices.count - 1))]
    }

    mutating func bits() -> UInt64 {
        random.next()
    }

    /// How many elements a collection gets at the current depth: usually a few, sometimes none,
    /// now and then many at the top.
    mutating func count() -> Int {
        switch depth {
        case 0: chance(0.1) ? 0 : chance(0.1) ? int(10...40) : int(1...8)
        case 1: chance(0.15) ? 0 : int(1...5)
        default: chance(0.3) ? 0 : int(1...3)
        }
    }

    /// Runs `body` one level deeper.
    mutating func nested<Value>(_ body: (inout Draw) -> Value) -> Value {
        depth += 1
        defer { depth -= 1 }
        return body(&self)
    }
}
