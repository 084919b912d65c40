/// An administrator's defaults, locks and bounds given in code, as the administrator's files
/// give them on a managed machine: for a test of a program's read-only paths
/// (`.isolatedDefaults(administration:)` in TypedDefaultsTestSupport) and for previews
/// (``DefaultsStore/inMemory(administration:)``). See <doc:ManagedSettings>.
///
/// ```swift
/// var administration = DefaultsAdministration()
/// administration.setDefault("stable", for: .updateChannel)
/// administration.lock(.telemetry, to: false)
/// administration.limit(.maxUploadMB, to: 1...50)
/// administration.lock(keysWithPrefix: "net.")
/// ```
///
/// A value that cannot be stored (a conversion that throws) is reported through
/// ``DefaultsError/handler`` and left out.
public struct DefaultsAdministration: Sendable {
    /// What errors and ``DefaultsValueSource`` name as the file the values came from.
    public let source: String
    var layer = ManagedLayer()

    /// An administration with nothing set yet; `source` stands for the file that would set it.
    public init(source: String = "a test's administrator") {
        self.source = source
    }

    /// Gives every user `value` as the key's default, under the user's own value.
    public mutating func setDefault<Value>(_ value: Value, for key: DefaultsKey<Value>) {
        guard let object = encoded(value, key: key.name) else { return }
        layer.defaults[DefaultsStoredKey(key.name)] = (object, source)
    }

    /// Locks the key: it reads the administrator's default where one is set, else the code's,
    /// and every write of it is refused.
    public mutating func lock<Value>(_ key: DefaultsKey<Value>) {
        layer.locks[DefaultsStoredKey(key.name)] = source
    }

    /// Locks the key to `value`.
    public mutating func lock<Value>(_ key: DefaultsKey<Value>, to value: Value) {
        setDefault(value, for: key)
        lock(key)
    }

    /// Locks every key whose name begins with `prefix`, scalar for scalar (as a locks file's
    /// `net.*` line does).
    public mutating func lock(keysWithPrefix prefix: String) {
        layer.prefixLocks.append((prefix, source))
    }

    /// Lets the user choose only inside `range`: writes outside are refused, and a stored value
    /// outside reads as the nearest end.
    public mutating func limit<Value: BinaryInteger>(_ key: DefaultsKey<Value>, to range: ClosedRange<Value>) {
        layer.bounds[DefaultsStoredKey(key.name)] = (
            .range(minimum: Double(range.lowerBound), maximum: Double(range.upperBound)), source
        )
    }

    /// Lets the user choose only inside `range`, as the integer form does: a bounds file's
    /// numbers are reals whatever the key's type.
    public mutating func limit<Value: BinaryFloatingPoint>(_ key: DefaultsKey<Value>, to range: ClosedRange<Double>) {
        layer.bounds[DefaultsStoredKey(key.name)] = (
            .range(minimum: range.lowerBound, maximum: range.upperBound), source
        )
    }

    /// Lets the user choose only among `values` (a subset of a setting's options): writes of
    /// others are refused, and a stored value not among them reads as the administrator's
    /// default, else the code's.
    public mutating func allow<Value>(_ values: [Value], for key: DefaultsKey<Value>) {
        let objects = values.compactMap { encoded($0, key: key.name) }
        layer.bounds[DefaultsStoredKey(key.name)] = (.allowed(objects), source)
    }

    private func encoded<Value: DefaultsValueConvertible>(_ value: Value, key: String) -> StoredObject? {
        switch Conversion.encode(value, key: key) {
        case .success(let object): return object
        case .failure(let error):
            DefaultsError.report(error)
            return nil
        }
    }
}
