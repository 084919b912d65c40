import Foundation

extension DefaultsStore {
    /// Every key the suite stores and its value, read from storage now: for a backup, a listing
    /// or a tool, with no Swift types needed.
    ///
    /// ```swift
    /// for (key, value) in try store.storedValues().sorted(by: { $0.key < $1.key }) {
    ///     print("\(key) = \(value.json())")
    /// }
    /// ```
    ///
    /// Changes this process has not written yet are written first. The file is read without
    /// taking the suite's lock (it is only ever replaced whole), so a writer that holds the lock,
    /// even one that is stopped, does not delay it. Unlike a read through a key, which gives
    /// defaults and reports, this throws when the suite cannot be read, and it repairs nothing:
    /// a file that does not parse is left where and as it is.
    ///
    /// - Throws: ``DefaultsError/unparsableFile(path:underlying:)``, ``DefaultsError/readFailed(path:underlying:)``, or
    ///   ``DefaultsError/writeFailed(path:underlying:)`` when the lock could not be taken.
    public func storedValues() throws(DefaultsError) -> [DefaultsStoredKey: DefaultsStoredValue] {
        try DefaultsStoredValue.values(of: state.storedContents())
    }

    /// The value stored under `key` as this store sees it now, or `nil` when nothing is: the
    /// same object a typed read of the key would decode, other processes' writes included. In a
    /// managed suite, the user's own, which a lock or bound may keep from showing (see
    /// ``administration(ofKey:)``).
    ///
    /// ```swift
    /// if case .integer(let size)? = store.storedValue(forKey: "fontSize") { print("stored:", size) }
    /// ```
    public func storedValue(forKey key: String) -> DefaultsStoredValue? {
        state.storedObject(state.slot(for: key)).flatMap { DefaultsStoredValue(plistObject: $0.object) }
    }

    /// Changes the suite's stored values as one atomic edit, under the suite's cross-process
    /// lock: `body` gets every key and value as they are in storage now, and what it leaves is
    /// written in one replacement of the file, keys it did not touch exactly as they were.
    ///
    /// ```swift
    /// try store.editStoredValues { values in
    ///     values["displayName"] = values.removeValue(forKey: "userName")
    ///     values["fontSize"] = .integer(14)
    /// }
    /// ```
    ///
    /// Observers, `didSet` callbacks and the caches of this process hear of each key that
    /// changed; other processes' observers as they do of any write. When `body` throws, nothing
    /// is written and its error is rethrown. Like ``storedValues()``, the edit repairs nothing:
    /// a suite whose file does not parse is left as it is, and the edit throws. A backend that
    /// retries a commit whose connection was lost (``DefaultsBackend``) runs `body` again on the
    /// freshest values; only the run that is stored counts.
    ///
    /// - Throws: what `body` threw, or a ``DefaultsError``: the suite could not be read
    ///   (``DefaultsError/unparsableFile(path:underlying:)``, ``DefaultsError/readFailed(path:underlying:)``), a value nests too deeply to store (``DefaultsError/encodingFailed(key:underlying:)``),
    ///   the edit would take the suite past the store's ``DefaultsSizeLimit``
    ///   (``DefaultsError/sizeLimitExceeded(key:path:size:limit:)``: nothing is written), or the file could not be written.
    @discardableResult
    public func editStoredValues<Result>(_ body: (inout [DefaultsStoredKey: DefaultsStoredValue]) throws -> Result)
        throws
        -> Result
    {
        try withoutActuallyEscaping(body) { body in
            var result: Result?
            var thrown: (any Error)?
            var warning: DefaultsError?
            do {
                try state.commitEdit(repairing: false) { edit throws(DefaultsError) in
                    let before = sizeLimit.measures ? edit.contents : [:]
                    _ = try edit.editValues { values throws(DefaultsError) in
                        do {
                            result = try body(&values)
                        } catch {
                            // Abandons the commit; `thrown` is what the caller gets.
                            thrown = error
                            throw .writeFailed(path: state.location, underlying: error)
                        }
                    }
                    warning = try sizeLimit.check(edit, from: before, path: state.location)
                }
            } catch {
                throw thrown ?? error
            }
            if let warning { DefaultsError.report(warning) }
            guard let result else {
                throw thrown ?? DefaultsError.writeFailed(path: state.location, underlying: NoResult())
            }
            return result
        }
    }
}

/// The edit's body did not run to the end, and threw nothing: cannot happen, named for safety.
private struct NoResult: Error {}

extension SuiteEdit {
    /// Everything the edit holds now.
    var contents: [DefaultsStoredKey: StoredObject] {
        var contents: [DefaultsStoredKey: StoredObject] = [:]
        for key in baseKeys().union(changes.keys) { contents[key] = self[key] }
        return contents
    }

    /// Runs `body` on the edit's contents as stored values, and makes the edit hold what `body`
    /// left: each key whose value changed is written, each key `body` removed is removed.
    /// Returns the values `body` left.
    func editValues(
        _ body: (inout [DefaultsStoredKey: DefaultsStoredValue]) throws(DefaultsError) -> Void
    ) throws(DefaultsError) -> [DefaultsStoredKey: DefaultsStoredValue] {
        let before = contents
        var values = try DefaultsStoredValue.values(of: before)
        try body(&values)
        for key in Set(before.keys).union(values.keys) {
            let after = try values[key].map { value throws(DefaultsError) in
                try Conversion.encode(value, key: key.name).get()
            }
            if !StoredObject.same(before[key], after) { self[key] = after }
        }
        return values
    }
}

extension DefaultsStoredValue {
    /// The values of a suite's stored objects; an object that is no property list (which the
    /// engine never stores) is a mismatch.
    static func values(of contents: [DefaultsStoredKey: StoredObject]) throws(DefaultsError) -> [DefaultsStoredKey:
        DefaultsStoredValue]
    {
        var values: [DefaultsStoredKey: DefaultsStoredValue] = [:]
        for (key, object) in contents {
            guard let value = DefaultsStoredValue(plistObject: object.object) else {
                throw .typeMismatch(
                    key: key.name, expected: "a property-list value", found: StoredObject.describe(object.object))
            }
            values[key] = value
        }
        return values
    }
}
