import Foundation
import TypedDefaultsStorage

/// The administrator's layer of a managed suite: reading it, keeping each slot's share of it,
/// and telling observers when it changes. A suite with no administrator's layer (`managed` is
/// `nil`, the rule) never gets here past one check: its slots have no entry, and reads and
/// writes go as they always did.
extension SuiteState {
    /// The object a read of `slot` decodes: the user's, or what the administrator's layer puts
    /// in its place. Under `lock`.
    func objectInForce(_ slot: KeySlot, _ after: inout AfterUnlock) -> StoredObject? {
        let user = loadedObject(slot, &after)
        guard let entry = slot.managed else { return user }
        return entry.inForce(user)
    }

    /// Reads the administrator's layer the first time the suite is used: before anything of
    /// the suite is read, so no read ever shows a value the layer overrides.
    func ensureAdministrationRead() {
        switch administration {
        case .files, .backend: break
        case .given, nil: return
        }
        guard lock.withLock({ !administrationRead }) else { return }
        rereadAdministration(unlessRead: true)
    }

    /// Reads the administrator's layer again (a watcher saw one of its files change, or the
    /// backend announced a change) and installs what it gives; `unlessRead`, only if no read
    /// did yet. Returns whether the layer read differs from the one before.
    @discardableResult
    func rereadAdministration(unlessRead: Bool = false) -> Bool {
        rereadingAdministration(unlessRead: unlessRead).changed
    }

    /// ``rereadAdministration(unlessRead:)``, also returning the failure this read recorded as
    /// unreported, if it did.
    private func rereadingAdministration(unlessRead: Bool) -> (changed: Bool, failure: DefaultsError?) {
        var after = AfterUnlock()
        defer { after.run() }
        return administrationReads.withLock { reads in
            if unlessRead, lock.withLock({ administrationRead }) { return (false, nil) }
            let layer: ManagedLayer?
            switch administration {
            case .files(let suite, let folders):
                let read = Self.readAdministration(suite: suite, in: folders)
                after.reportAll(read.problems)
                layer = read.layer
            case .backend(let backend):
                switch backend.loadAdministration() {
                case .success(let read):
                    reads.failing = false
                    reads.unreported = nil
                    if read == reads.last, lock.withLock({ administrationRead }) { return (false, nil) }
                    reads.last = read
                    layer = read.map(ManagedLayer.init)
                case .failure(let error):
                    // The layer read last stays: a server that cannot be reached for a while
                    // neither unlocks what it locked nor fills the handler with one report a
                    // change. Writes it still refuses are refused where it stores them. The
                    // next read of the values tells whether to report it (see
                    // ``settleAdministrationFailure()``).
                    let recorded = reads.failing ? nil : error
                    if let recorded { reads.unreported = recorded }
                    reads.failing = true
                    lock.withLock { administrationRead = true }
                    return (false, recorded)
                }
            case .given, nil:
                return (false, nil)
            }
            lock.withLock {
                administrationRead = true
                install(layer, &after)
            }
            return (true, nil)
        }
    }

    /// Settles the failure of the last read of a backend's layer, once a read of the values
    /// after it succeeded: the failure may have passed (a server restarting), so the layer is
    /// read once more, and a second failure is the one to report. Until then it waits, through
    /// any number of reads that fail as well: the backend cannot be reached, which its loads
    /// and commits report, and the layer read last stays. Called holding none of the suite's
    /// locks, by whichever thread reads the values first: a load, a reload, or a commit that
    /// gave the suite its first contents.
    func settleAdministrationFailure() -> DefaultsError? {
        guard case .backend = administration else { return nil }
        // One settles at a time: another thread's read of the values meanwhile is answered by
        // this read of the layer, whose failure it would otherwise take and read again.
        let pending = administrationReads.withLock { reads in
            guard reads.unreported != nil, !reads.settling else { return false }
            reads.unreported = nil
            reads.failing = false
            reads.settling = true
            return true
        }
        guard pending else { return nil }
        let failure = rereadingAdministration(unlessRead: false).failure
        return administrationReads.withLock { reads in
            reads.settling = false
            // This read's own failure only: one another thread's read recorded since waits, as
            // any does, for a read of the values after it.
            guard let failure else { return nil }
            reads.unreported = nil
            return failure
        }
    }

    /// Watches the administrator's files of the suite, from its first use on: a lock or a
    /// default appearing, changing or going is heard as a write of the user's file is.
    func startWatchingAdministration() {
        guard case .files(let suite, let folders) = administration else { return }
        for file in AdministratorFiles.paths(suite: suite, in: folders) {
            // Never made: an administrator's folder is the administrator's to make.
            if isPermanent {
                FileWatcher.watch(file, makingFolder: false) { [unowned self] in rereadAdministration() }
            } else {
                FileWatcher.watch(file, makingFolder: false) { [weak self] in self?.rereadAdministration() }
            }
        }
    }

    private static func readAdministration(
        suite: String, in folders: AdministratorFolders
    ) -> (layer: ManagedLayer?, problems: [DefaultsError]) {
        let files = AdministratorFiles.read(suite: suite, in: folders)
        let problems = files.problems.map { DefaultsError.administratorFileUnusable(path: $0.path, problem: $0.reason) }
        return (files.isEmpty ? nil : ManagedLayer(files), problems)
    }

    /// Makes `layer` the suite's administrator's layer: each slot whose share of it changed
    /// reads afresh, and its observers and observation tracking hear of it, even when only
    /// whether it may be written changed. Under `lock`.
    func install(_ layer: ManagedLayer?, _ after: inout AfterUnlock) {
        let layer = layer?.isEmpty == true ? nil : layer
        if managed == nil, layer == nil { return }
        // Observers of every key hear of keys no handle here has used: their slots are made,
        // as the user's contents have them.
        if !observers.isEmpty {
            var keys = knownKeys()
            for known in [managed, layer] {
                guard let known else { continue }
                keys.formUnion(known.defaults.keys)
                keys.formUnion(known.locks.keys)
                keys.formUnion(known.bounds.keys)
            }
            for key in keys where slots[key] == nil {
                let slot = slotLocked(for: key)
                if let stored {
                    slot.object = stored[key]
                    slot.isLoaded = true
                }
            }
        }
        managed = layer
        for (key, slot) in slots {
            let entry = layer?.entry(for: key)
            if ManagedEntry.same(slot.managed, entry) { continue }
            let user = slot.isLoaded ? slot.object : nil
            let old = (object: slot.managed.map { $0.inForce(user) } ?? user, bound: slot.managed?.bound)
            slot.managed = entry
            let new = (object: entry.map { $0.inForce(user) } ?? user, bound: entry?.bound)
            slot.generation &+= 1
            slot.initialValueNotStored = false
            slot.clearCache()
            guard slot.isLoaded else { continue }
            announce(slot, from: old, to: new, &after)
        }
    }

    /// Tells of a change of what `slot` reads as, or only of whether it may be written: its
    /// `didSet` callbacks run only for a change of value, observation tracking for either.
    private func announce(
        _ slot: KeySlot, from old: (object: StoredObject?, bound: ManagedBound?),
        to new: (object: StoredObject?, bound: ManagedBound?), _ after: inout AfterUnlock
    ) {
        var callbacks = slot.liveCallbacks()
        if StoredObject.same(old.object, new.object) { callbacks = callbacks.filter(\.tracksObservation) }
        guard !observers.isEmpty || !callbacks.isEmpty else { return }
        let change = SlotChange(
            key: slot.key, oldObject: old.object, newObject: new.object, origin: .otherProcess, oldBound: old.bound,
            newBound: new.bound)
        if !observers.isEmpty { observers.enqueue(change) }
        after.call(callbacks, with: change)
    }

    /// Why the edit's changes may not be committed: the first that changes a locked key, or
    /// takes one outside its bounds. Under `lock`.
    func managedRefusal(of edit: SuiteEdit) -> DefaultsError? {
        guard let managed else { return nil }
        for (key, object) in edit.changes.sorted(by: { $0.key < $1.key }) {
            guard let entry = managed.entry(for: key), !StoredObject.same(object, edit.original(key)) else { continue }
            if let problem = entry.refusal(of: object, key: key.name) { return problem }
        }
        return nil
    }

    /// The administrator's share of `key`, and the user's own object, for the calls that tell
    /// them apart (``DefaultsStore/valueSource(of:)``).
    func managedState(of slot: KeySlot) -> (entry: ManagedEntry?, user: StoredObject?) {
        ensureAdministrationRead()
        var after = AfterUnlock()
        defer { after.run() }
        return withLoadedLock { (slot.managed, loadedObject(slot, &after)) }
    }
}

/// Where a suite's administrator's layer comes from.
enum AdministrationSource: Sendable {
    /// The files of the suite named `suite` in `folders`: `$XDG_CONFIG_DIRS`'s, but in tests.
    case files(suite: String, folders: AdministratorFolders)
    /// A layer given in code: a test's, or an in-memory store's for a preview.
    case given(ManagedLayer)
    /// What a program's backend keeps (``DefaultsBackend/loadAdministration()``), read at first
    /// use and again each time the backend announces a change.
    case backend(ExternalBackend)

    /// This process's administrator's folders, found once: `$XDG_CONFIG_DIRS` is read at start.
    static let folders = AdministratorFolders.current

    /// The files of the suite named `suite` in this process's administrator's folders.
    static func files(suite: String) -> AdministrationSource {
        .files(suite: suite, folders: folders)
    }
}

/// What the reads of a backend's administrator's layer found: the layer read last, to tell a
/// change from a read that found the same, and whether reads are failing, so that a run of
/// failures is reported once.
struct AdministrationReads {
    var last: DefaultsBackendAdministration?
    var failing = false
    /// A read's failure, until a read of the values after it succeeds and settles it.
    var unreported: DefaultsError?
    /// Whether a thread is settling `unreported`.
    var settling = false
}

extension ManagedLayer {
    /// The layer a program's backend gives, every entry naming its `source`.
    init(_ administration: DefaultsBackendAdministration) {
        let source = administration.source
        for (key, value) in administration.defaults { defaults[key] = (StoredObject(value.plistObject), source) }
        for key in administration.lockedKeys { locks[key] = source }
        prefixLocks = administration.lockedPrefixes.map { (prefix: $0, source: source) }
    }

    /// The layer the administrator's files give: the most important folder's default wins, a
    /// lock in any folder locks, and a file that restricts and cannot be read locks everything.
    init(_ files: AdministratorFiles) {
        for defaults in files.defaults {
            for (key, object) in [DefaultsStoredKey: StoredObject](fileEntries: defaults.fileEntries)
            where self.defaults[key] == nil {
                self.defaults[key] = (object, defaults.path)
            }
        }
        for locks in files.locks {
            for key in locks.keys where self.locks[DefaultsStoredKey(key)] == nil {
                self.locks[DefaultsStoredKey(key)] = locks.path
            }
            prefixLocks += locks.prefixes.map { (prefix: $0, source: locks.path) }
        }
        for bounds in files.bounds {
            for (key, bound) in bounds.bounds where self.bounds[DefaultsStoredKey(key)] == nil {
                let converted: ManagedBound =
                    switch bound {
                    case .range(let minimum, let maximum): .range(minimum: minimum, maximum: maximum)
                    case .allowed(let values): .allowed(values.objects.map(StoredObject.init))
                    }
                self.bounds[DefaultsStoredKey(key)] = (converted, bounds.path)
            }
        }
        lockingEverything = files.unreadableRestrictions.first
    }
}
