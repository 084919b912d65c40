import Foundation

extension DefaultsStoredValue {
    /// Reads a property list — binary, XML or OpenStep — as a stored value: a backup to import,
    /// a file another program wrote.
    ///
    /// ```swift
    /// let backup = try DefaultsStoredValue(propertyList: Data(contentsOf: url))
    /// guard case .dictionary(let values) = backup else { return }
    /// ```
    ///
    /// Read as a suite file is, with the same guarantees: every dictionary key is kept exactly
    /// (two keys that differ only in their Unicode normalization stay two), a string is never
    /// changed (invalid UTF-8 or UTF-16 is refused, not replaced), and the work any bytes can
    /// cause is bounded — a binary file whose shared objects would decode to more elements than
    /// its size justifies is refused before anything is decoded.
    ///
    /// - Throws: ``FormatError`` saying what is wrong and where.
    public init(propertyList data: Data) throws(FormatError) {
        let object: Any
        do {
            object = try PropertyListReader.object(from: data)
        } catch {
            throw FormatError(error.description)
        }
        guard let value = DefaultsStoredValue(propertyListObject: object) else {
            throw FormatError("it nests deeper than the \(StoredObject.maximumNestingDepth) levels a suite may hold")
        }
        self = value
    }

    /// The value as a binary property list (`bplist00`), the format suites are written in: every
    /// property-list reader accepts it, and it keeps what XML cannot (fractions of a second,
    /// control characters, keys that differ only in their normalization).
    ///
    /// ```swift
    /// try DefaultsStoredValue.dictionary(["fontSize": .integer(14)]).propertyListData().write(to: url)
    /// ```
    public func propertyListData() -> Data {
        // Every stored value is a property list the writer accepts.
        (try? BinaryPropertyList.data(object: propertyListObject)) ?? Data()
    }
}
