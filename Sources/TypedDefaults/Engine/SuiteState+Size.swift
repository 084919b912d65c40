import Foundation

/// Keeping a suite within its store's ``DefaultsSizeLimit``: the size a write would leave, known
/// before the write is made, so that a write past the limit changes nothing.
///
/// The size is counted once (every entry's, from the slots and the loaded contents) and then
/// kept as writes change it, in ``change(_:to:origin:sizeChange:_:)``; taking in contents whole
/// (a load, another process's commit, this process's flush) forgets it, and the next write
/// counts it again. So a write costs the estimate of its new object (a slot keeps the size of
/// the value it holds, measured by the write that stored it), and a count of the whole suite
/// comes at most once per commit, whose write of the file costs more.
extension SuiteState {
    /// The suite's size as this process sees it, pending writes included, counted when not
    /// known. Under `lock`, the suite loaded.
    func currentSize() -> Int {
        if let bytes = sizeInBytes { return bytes }
        var bytes = StoredObject.emptySuiteSize
        for key in knownKeys() {
            let object: StoredObject?
            if let slot = slots[key], slot.isLoaded {
                object = slot.object
            } else {
                object = stored.map { $0[key] } ?? backend.object(forKey: key)
            }
            bytes += StoredObject.entrySize(key, object)
        }
        sizeInBytes = bytes
        return bytes
    }

    /// How much a write to `slot` of an object of `newSize` bytes (`nil`: a removal) changes
    /// the suite's size, and that size, or `nil` when `limit` refuses it (reported through
    /// `after`); a crossing of the warning mark is reported too. Under `lock`.
    func admit(
        newSize: Int?, to slot: KeySlot, within limit: DefaultsSizeLimit, _ after: inout AfterUnlock
    ) -> SizeChange? {
        // A suite that cannot be read has no known size: only a value past the limit by itself
        // is refused, and the rest kept until it can be read.
        guard loadSuite(&after) else {
            let alone = StoredObject.emptySuiteSize + StoredObject.sizeChange(slot.key, from: nil, to: newSize)
            if case .refused(let error) = limit.judge(
                from: StoredObject.emptySuiteSize, to: alone, key: slot.key.name, path: location)
            {
                after.report(error)
                return nil
            }
            return SizeChange(growth: 0, objectSize: nil)
        }
        if !slot.isLoaded { _ = loadedObject(slot, &after) }
        var oldSize = slot.objectSize
        if oldSize == nil, let old = slot.object { oldSize = StoredObject.size(of: old.object) }
        let growth = StoredObject.sizeChange(slot.key, from: oldSize, to: newSize)
        let before = currentSize()
        switch limit.judge(from: before, to: before + growth, key: slot.key.name, path: location) {
        case .refused(let error):
            after.report(error)
            return nil
        case .admitted(let warning):
            after.report(warning)
            return SizeChange(growth: growth, objectSize: newSize)
        }
    }

    /// What a write admitted changes: the suite's size, and the size of the slot's new value.
    struct SizeChange {
        var growth: Int
        var objectSize: Int?
    }

    /// The verdict on an edit that sets `key` to `object` in `edit`, from the contents the edit
    /// holds: for an atomic update, which commits under the backend's lock.
    static func judgeUpdate(
        of key: DefaultsStoredKey, to object: StoredObject?, in edit: SuiteEdit, within limit: DefaultsSizeLimit,
        path: String
    ) -> DefaultsSizeLimit.Verdict {
        guard limit.measures else { return .admitted(warning: nil) }
        let before = StoredObject.suiteSize(edit.contents)
        let after = before + StoredObject.sizeChange(key, from: edit[key], to: object)
        return limit.judge(from: before, to: after, key: key.name, path: path)
    }
}

extension DefaultsSizeLimit {
    /// Whether the limit refuses or reports anything, so that a change's size is worth counting.
    var measures: Bool { bytes != nil || warningBytes != nil }

    /// Throws when `edit` grew the suite from `before` past the limit, naming the key that grew
    /// it most; returns the report due when it crossed the warning mark. The `ignored` key (a
    /// migration's version) is left out of both sizes.
    func check(
        _ edit: SuiteEdit, from before: [DefaultsStoredKey: StoredObject], path: String,
        ignoring ignored: DefaultsStoredKey? = nil
    ) throws(DefaultsError) -> DefaultsError? {
        guard measures else { return nil }
        var before = before
        var after = edit.contents
        if let ignored {
            before[ignored] = nil
            after[ignored] = nil
        }
        let growth = { (key: DefaultsStoredKey) in StoredObject.sizeChange(key, from: before[key], to: after[key]) }
        guard let key = edit.changes.keys.filter({ $0 != ignored }).max(by: { growth($0) < growth($1) }) else {
            return nil
        }
        let verdict = judge(
            from: StoredObject.suiteSize(before), to: StoredObject.suiteSize(after), key: key.name, path: path)
        switch verdict {
        case .refused(let error): throw error
        case .admitted(let warning): return warning
        }
    }

    /// Whether a change that takes a suite from `before` to `after` bytes may be made.
    enum Verdict {
        case refused(DefaultsError)
        /// Made; with the report due when it crosses the warning mark.
        case admitted(warning: DefaultsError?)
    }

    /// A change that makes the suite no larger is always made; one that grows it past
    /// ``bytes`` is refused, one that takes it from below ``warningBytes`` to it or past it is
    /// made and reported.
    func judge(from before: Int, to after: Int, key: String, path: String) -> Verdict {
        guard after > before else { return .admitted(warning: nil) }
        if let bytes, after > bytes {
            return .refused(.sizeLimitExceeded(key: key, path: path, size: after, limit: bytes))
        }
        if let warningBytes, before < warningBytes, after >= warningBytes {
            return .admitted(warning: .nearingSizeLimit(path: path, size: after, limit: bytes ?? warningBytes))
        }
        return .admitted(warning: nil)
    }
}
