import Foundation

extension AdministratorFiles {
    /// Why a restriction file, or one entry of it, says nothing usable, in one line.
    struct Malformed: Error, CustomStringConvertible {
        let description: String

        init(_ description: String) {
            self.description = description
        }
    }

    /// The keys and prefixes a locks file's text names: a key a line, spaces, tabs and carriage
    /// returns around it trimmed; blank lines and lines that begin with `#` left out (a `#`
    /// further on is the key's); a line ending in `*` is a prefix (a lone `*`, every key).
    ///
    /// A NUL byte anywhere fails the whole file, not its line: text written by hand has none,
    /// and a file that does is no such text (UTF-16, where every other byte is one, or a write
    /// cut short and filled with zeros), whose other lines would be read as keys they do not
    /// name while the locks meant went missing.
    static func locks(in data: Data) -> Result<(Set<String>, [String]), Malformed> {
        var bytes = ArraySlice(data)
        // A byte order mark, as some editors begin UTF-8 with: part of no key.
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        if bytes.contains(0) { return .failure(Malformed("it holds a NUL byte, so it is no text written by hand")) }
        guard PropertyListReader.utf8String(bytes) != nil else {
            return .failure(Malformed("it is not UTF-8 text"))
        }
        var keys: Set<String> = []
        var prefixes: [String] = []
        let isBlank = { (byte: UInt8) in byte == 0x20 || byte == 0x09 || byte == 0x0D }
        // Split by bytes: Swift's `Character` sees "\r\n" as one, which is not "\n".
        for line in bytes.split(separator: UInt8(ascii: "\n")) {
            var trimmed = line.drop(while: isBlank)
            while let last = trimmed.last, isBlank(last) { trimmed = trimmed.dropLast() }
            guard let first = trimmed.first, first != UInt8(ascii: "#") else { continue }
            if trimmed.last == UInt8(ascii: "*") {
                let prefix = String(decoding: trimmed.dropLast(), as: UTF8.self)
                if !prefixes.contains(prefix) { prefixes.append(prefix) }
            } else {
                keys.insert(String(decoding: trimmed, as: UTF8.self))
            }
        }
        return .success((keys, prefixes))
    }

    /// One bounds entry: a dictionary of `minimum` and/or `maximum`, numbers, or of `allowed`
    /// alone, an array. Any other key is refused rather than ignored: a misspelt `maximun` would
    /// otherwise leave the key unbounded without a word.
    static func bound(from value: Any) -> Result<Bound, Malformed> {
        guard let entry = PropertyListObject.dictionary(value) else {
            return .failure(Malformed("it is \(PropertyListObject.describe(value)), not a dictionary"))
        }
        let unknown = entry.keys.filter { !["minimum", "maximum", "allowed"].contains($0) }.sorted()
        guard unknown.isEmpty else {
            let names = unknown.map { String(reflecting: $0) }.joined(separator: ", ")
            return .failure(Malformed("it has \(names), where only minimum, maximum or allowed may be"))
        }
        if let allowed = entry["allowed"] {
            guard entry.count == 1 else { return .failure(Malformed("it has allowed with minimum or maximum")) }
            guard let elements = PropertyListObject.array(allowed) else {
                return .failure(Malformed("its allowed is \(PropertyListObject.describe(allowed)), not an array"))
            }
            return .success(.allowed(AllowedValues(objects: elements)))
        }
        guard !entry.isEmpty else { return .failure(Malformed("it is empty: no minimum, maximum or allowed")) }
        let minimum: Double?
        let maximum: Double?
        switch (number(entry["minimum"], named: "minimum"), number(entry["maximum"], named: "maximum")) {
        case (.failure(let why), _), (_, .failure(let why)): return .failure(why)
        case (.success(let low), .success(let high)): (minimum, maximum) = (low, high)
        }
        if let minimum, let maximum, minimum > maximum {
            return .failure(Malformed("its minimum \(minimum) is more than its maximum \(maximum)"))
        }
        return .success(.range(minimum: minimum, maximum: maximum))
    }

    /// A limit of a range, `nil` when there is none; a Bool or NaN is no limit a value can meet.
    private static func number(_ object: Any?, named name: String) -> Result<Double?, Malformed> {
        guard let object else { return .success(nil) }
        switch PropertyListObject.number(object) {
        case .signed(let value)?: return .success(Double(value))
        case .unsigned(let value)?: return .success(Double(value))
        case .floating(let value)? where !value.isNaN: return .success(value)
        case .floating?: return .failure(Malformed("its \(name) is not a number (NaN)"))
        case .bool?, nil:
            return .failure(Malformed("its \(name) is \(PropertyListObject.describe(object)), not a number"))
        }
    }
}
