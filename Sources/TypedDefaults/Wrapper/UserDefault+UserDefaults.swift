import Foundation

/// The spellings of juliand665/UserDefault, the library this API started from: code written
/// for it compiles here with only its `import` changed, and behaves as it documents where this
/// engine allows (<doc:MovingFromAnotherLibrary> says where it differs).
extension UserDefault {
    /// Declares a stored property with a default value, in the suite of `defaults`.
    ///
    /// ```swift
    /// @UserDefault("theme", defaults: UserDefaults(suiteName: "com.example.app")!) var theme = "system"
    /// ```
    ///
    /// - Parameters:
    ///   - defaultValue: the value read while nothing is stored; it is never written.
    ///   - key: the name the value is stored under.
    ///   - defaults: the `UserDefaults` object whose suite the value lives in, shared with every
    ///     other handle on that suite as `DefaultsStore(defaults)` is.
    public init(wrappedValue defaultValue: Value, _ key: String, defaults: UserDefaults) {
        self.init(wrappedValue: defaultValue, key, store: DefaultsStore(defaults))
    }

    /// Declares an optional stored property whose default is `nil`, in the suite of `defaults`.
    ///
    /// - Parameters:
    ///   - key: the name the value is stored under.
    ///   - defaults: the `UserDefaults` object whose suite the value lives in.
    public init(_ key: String, defaults: UserDefaults) where Value: ExpressibleByNilLiteral {
        self.init(wrappedValue: nil, key, store: DefaultsStore(defaults))
    }

    /// A `UserDefaults` object on the property's suite: the store's own where it keeps one
    /// (Apple platforms), else, on Linux, one of the suite's name, which sees this store's
    /// writes once they are flushed. A store in memory or on a ``DefaultsBackend`` has no suite
    /// that `UserDefaults` can read: it is then `UserDefaults.standard`, which that store never
    /// writes.
    public var defaults: UserDefaults {
        store.userDefaults
    }

    /// Whether a read finds a value stored under the key that reads as `Value`: `false` when
    /// nothing is stored, or when what is stored gives the default (see ``load()``).
    public var wasLoadedSuccessfully: Bool {
        do {
            _ = try load()
            return true
        } catch {
            return false
        }
    }

    /// Reads the suite again from its storage, so that the next read shows what another
    /// process or a plain `UserDefaults` wrote without waiting to be told: ``DefaultsStore/refresh()``,
    /// after handing the suite's file this process's plain writes, which on Linux stay in
    /// memory until `synchronize()`, as juliand665/UserDefault's `loadValue()` reads them.
    /// Every read already returns the stored value of the moment; nothing else is cached.
    public func loadValue() {
        store.writePlainWrites()
        store.refresh()
    }

    /// Stores the value a read returns now, the default included when nothing is stored, as
    /// assigning it would.
    public func saveValue() {
        wrappedValue = wrappedValue
    }

    /// Removes the stored value, so the default shows again: ``reset()``.
    public func clear() {
        reset()
    }
}

// Each is every conforming type's witness of a requirement: specialised, each would copy the
// whole write or read path into every app's binary once per type the core conforms (the
// integers, floating-point types, String, Data, …). Neither is a cached read or a property's
// write, so one generic body serves them all.
extension DefaultsValue {
    /// Reads the value stored under `key` in the suite of `defaults`, as this engine sees the
    /// suite (writes not yet flushed included).
    ///
    /// ```swift
    /// let names = try [String](from: .standard, forKey: "names")
    /// ```
    ///
    /// - Throws: ``DefaultsError/missingValue(key:)`` when nothing is stored,
    ///   ``DefaultsError/typeMismatch(key:expected:found:)`` when what is stored is not a `Self`.
    @inline(never) @_semantics("optimize.sil.specialize.generic.never")
    public init(from defaults: UserDefaults, forKey key: String) throws(DefaultsError) {
        guard let stored = DefaultsStore(defaults).storedValue(forKey: key) else { throw .missingValue(key: key) }
        do {
            self = try Self(storedObject: stored.plistObject)
        } catch {
            throw .reading(key, error)
        }
    }

    /// Stores the value under `key` in the suite of `defaults`, as assigning a property would:
    /// a failure is reported to ``DefaultsError/handler``.
    @inline(never) @_semantics("optimize.sil.specialize.generic.never")
    public func save(to defaults: UserDefaults, forKey key: String) {
        UserDefault(wrappedValue: self, key, store: DefaultsStore(defaults)).wrappedValue = self
    }
}

extension DefaultsStore {
    /// Hands the suite's storage this process's plain `UserDefaults` writes, so that a refresh
    /// takes them in (`StoreBackend.writePlainWrites()`); a failure to lock the file is reported.
    func writePlainWrites() {
        do {
            try state.backend.writePlainWrites()
        } catch {
            DefaultsError.report(error)
        }
    }

    /// The `UserDefaults` object ``UserDefault/defaults`` gives for the store's suite.
    var userDefaults: UserDefaults {
        if let backend = ownState.backend as? UserDefaultsBackend { return backend.defaults.defaults }
        if let file = ownState.fileURL,
            let defaults = UserDefaults(suiteName: file.deletingPathExtension().lastPathComponent)
        {
            return defaults
        }
        return .standard
    }
}
