import Foundation
import TypedDefaults
import TypedDefaultsStorage

extension DefaultsStoredValue {
    /// The value of a property-list object as Foundation returns it (`NSNumber`s, `[Any]`,
    /// `[String: Any]`), or `nil` for an object that is not a property list, or one that nests
    /// deeper than a suite may hold.
    ///
    /// A `[String: Any]` cannot hold two keys that differ only in their Unicode normalization;
    /// values read with `DefaultsStore.storedValues()` or ``init(propertyList:)`` keep both.
    ///
    /// ```swift
    /// let value = DefaultsStoredValue(propertyListObject: UserDefaults.standard.object(forKey: "count") as Any)
    /// ```
    public init?(propertyListObject object: Any) {
        self.init(plistObject: object)
    }

    /// The value as the Swift objects the engine writes: `Int` for an integer, `UInt64` above
    /// `Int64.max`, `Double`, `[Any]` and `[String: Any]`. A dictionary with two keys that are
    /// equal as Swift strings is an object of the engine's own, which only TypedDefaults reads
    /// and writes (`UserDefaults.set` refuses it).
    public var propertyListObject: Any { plistObject }

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
        self = try Self(Self.object(in: data))
    }

    /// Reads a suite's property list — a dictionary of keys, as a suite file or a backup holds
    /// one — whose values may each nest as deep as a suite allows (``init(propertyList:)``
    /// counts the dictionary as a level). A root that is no dictionary is read as
    /// ``init(propertyList:)`` reads it.
    ///
    /// ```swift
    /// guard case .dictionary(let values) = try DefaultsStoredValue(suitePropertyList: backup) else { return }
    /// ```
    ///
    /// - Throws: ``FormatError``, as ``init(propertyList:)``.
    public init(suitePropertyList data: Data) throws(FormatError) {
        let object = try Self.object(in: data)
        guard let entries = StoredObject.exactEntries(object) else {
            self = try Self(object)
            return
        }
        var values: [DefaultsStoredKey: DefaultsStoredValue] = [:]
        values.reserveCapacity(entries.count)
        for (key, entry) in entries { values[key] = try Self(entry) }
        self = .dictionary(values)
    }

    private static func object(in data: Data) throws(FormatError) -> Any {
        do {
            return try PropertyListReader.object(from: data)
        } catch {
            throw FormatError(error.description)
        }
    }

    private init(_ object: Any) throws(FormatError) {
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
