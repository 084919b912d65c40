import Foundation
import Testing

@testable import TypedDefaults
@testable import TypedDefaultsStorage

extension DefaultsKeys {
    fileprivate static let telemetry = DefaultsKey<Bool>("telemetry", default: true)
    fileprivate static let upload = DefaultsKey<Int>("maxUploadMB", default: 100)
    fileprivate static let ratio = DefaultsKey<Double>("ratio", default: 0.5)
    fileprivate static let free = DefaultsKey<Int>("free", default: 7)
    fileprivate static let hostileNickname = DefaultsKey<String?>("nickname")
    fileprivate static let composed = DefaultsKey<Int>("caf\u{E9}", default: 1)
    fileprivate static let decomposed = DefaultsKey<Int>("cafe\u{301}", default: 1)
    fileprivate static let composedInPrefix = DefaultsKey<Int>("caf\u{E9}.size", default: 1)
    fileprivate static let decomposedInPrefix = DefaultsKey<Int>("cafe\u{301}.size", default: 1)
}

/// An administrator's layer under attack: writes that try to slip past a lock, reads at the
/// edges of a bound, and administrator's files changing under a store that reads them.
@Suite struct ManagedHostileTests {
    // MARK: - Writes past a lock

    @Test func aNestedWriteOfALockedKeyInsideAnotherKeysUpdateIsRefused() {
        var administration = DefaultsAdministration(source: "hostile.locks")
        administration.lock(.telemetry, to: false)
        let store = DefaultsStore.inMemory(administration: administration)
        let (_, errors) = ReportedErrors.during {
            store.update(.free) { free in
                free = 8
                store[.telemetry] = true
                store.update(.telemetry) { $0 = true }
                UserDefault(.telemetry, store: store).reset()
            }
        }
        #expect(store[.free] == 8 && store[.telemetry] == false)
        #expect(store.storedValue(forKey: "telemetry") == nil)
        #expect(errors.count == 3, "\(errors)")
    }

    @Test func anOptionalSetToNilUnderALockKeepsTheUsersValue() {
        let store = DefaultsStore.inMemory()
        store[.hostileNickname] = "ada"
        var administration = DefaultsAdministration(source: "hostile.locks")
        administration.lock(.hostileNickname)
        store.administer(administration)
        let (_, errors) = ReportedErrors.during {
            store[.hostileNickname] = nil
            store.reset([DefaultsKeys.hostileNickname] as [DefaultsKeys])
            store.removeAll()
        }
        #expect(errors.count == 3, "\(errors)")
        #expect(store[.hostileNickname] == nil, "locked with no administrator's value: the code's default")
        #expect(store.userValue(of: .hostileNickname) == "ada")
        #expect(store.storedValue(forKey: "nickname") == .string("ada"))
        store.administer(nil)
        #expect(store[.hostileNickname] == "ada")
    }

    @Test func anInitialValueIsNotStoredUnderALockAndIsOnceItGoes() {
        let key = DefaultsKey<Int>("installNumber", initialValue: 42)
        var administration = DefaultsAdministration(source: "hostile.locks")
        administration.lock(key)
        let store = DefaultsStore.inMemory(administration: administration)
        let (_, errors) = ReportedErrors.during {
            #expect(store[key] == 42)
            #expect(store[key] == 42)
        }
        #expect(errors.isEmpty, "a read reports nothing: \(errors)")
        #expect(store.storedValue(forKey: "installNumber") == nil)
        store.administer(nil)
        #expect(store[key] == 42 && store.storedValue(forKey: "installNumber") == .integer(42))
    }

    @Test func migrationsThatMoveALockedKeyAreRefusedAndKeepIt() throws {
        var administration = DefaultsAdministration(source: "hostile.locks")
        administration.lock(.free)
        let destination = DefaultsStore.inMemory(administration: administration)
        let source = DefaultsStore.inMemory()
        source[.free] = 3
        let (_, errors) = ReportedErrors.during {
            #expect(throws: DefaultsError.self) { try source.migrate([.moveKey("free", to: destination)]) }
        }
        #expect(errors.isEmpty || errors.allSatisfy { "\($0)".contains("free") }, "\(errors)")
        #expect(source[.free] == 3 && source.migrationVersion == 0)
        #expect(destination.storedValue(forKey: "free") == nil && destination[.free] == 7)

        // The locked key in the suite migrated: neither renamed nor dropped.
        source.administer(administration)
        #expect(throws: DefaultsError.self) { try source.migrate([.renameKey("free", to: "open")]) }
        #expect(throws: DefaultsError.self) { try source.editStoredValues { $0["free"] = nil } }
        #expect(source.storedValue(forKey: "free") == .integer(3) && source.storedValue(forKey: "open") == nil)
    }

    @Test func aLockIsScalarExactAndEveryPathAgrees() {
        var administration = DefaultsAdministration(source: "hostile.locks")
        administration.lock(.composed)
        administration.lock(keysWithPrefix: "caf\u{E9}.")
        let store = DefaultsStore.inMemory(administration: administration)
        let (_, errors) = ReportedErrors.during {
            store[.composed] = 2
            store[.decomposed] = 3
            store[.composedInPrefix] = 4
            store[.decomposedInPrefix] = 5
        }
        #expect(errors.count == 2, "\(errors)")
        #expect(store[.composed] == 1 && store[.decomposed] == 3)
        #expect(store[.composedInPrefix] == 1 && store[.decomposedInPrefix] == 5)
        #expect(!store.isWritable(.composed) && store.isWritable(.decomposed))
        #expect(!store.isWritable(.composedInPrefix) && store.isWritable(.decomposedInPrefix))
        #expect(!store.administration(ofKey: "caf\u{E9}").isWritable)
        #expect(store.administration(ofKey: "cafe\u{301}").isWritable)
        #expect(!store.administration(ofKey: "caf\u{E9}.size").isWritable)
        #expect(store.administration(ofKey: "cafe\u{301}.size").isWritable)
        #expect(throws: DefaultsError.self) { try store.editStoredValues { $0["caf\u{E9}"] = .integer(9) } }
        #expect(throws: Never.self) { try store.editStoredValues { $0["cafe\u{301}"] = .integer(9) } }
        #expect(store[.decomposed] == 9 && store[.composed] == 1)
    }

    @Test func aLockBetweenAWriteAndItsCoalescedFlushKeepsTheUsersValue() throws {
        let machine = try ManagedMachine()
        defer { machine.remove() }
        let store = machine.store(durability: .coalesced(within: .seconds(600)))
        store[.telemetry] = false
        var administration = DefaultsAdministration(source: "hostile.locks")
        administration.lock(.telemetry, to: true)
        store.administer(administration)
        #expect(store[.telemetry] == true)
        try store.flush()
        let reopened = machine.store()
        #expect(reopened.storedValue(forKey: "telemetry") == .boolean(false), "written to the file under the lock")
        store.administer(nil)
        #expect(store[.telemetry] == false && store.userValue(of: .telemetry) == false)
    }

    @Test func anErrorHandlerThatUsesTheStoreInsideAnUpdateNeitherDeadlocksNorWrites() throws {
        let machine = try ManagedMachine()
        defer { machine.remove() }
        try Data("telemetry\n".utf8).write(to: machine.adminFile("locks"))
        let store = machine.store()
        let seen = Collected<Bool>()
        let (_, errors) = ReportedErrors.during(reaction: {
            // The handler reads the store, writes another key and flushes, from inside the
            // update whose body made the refused write.
            seen.append(store[.telemetry])
            store[.ratio] = 0.25
            try? store.flush()
        }) {
            store.update(.free) { free in
                free = 9
                store[.telemetry] = false
            }
        }
        #expect(errors.count == 1 && seen.all == [true], "\(errors)")
        #expect(store[.free] == 9 && store[.ratio] == 0.25 && store[.telemetry] == true)
        let reopened = machine.store()
        #expect(reopened.storedValue(forKey: "free") == .integer(9))
        #expect(reopened.storedValue(forKey: "ratio") == .real(0.25))
        #expect(reopened.storedValue(forKey: "telemetry") == nil)
    }

    // MARK: - Reads at the edges of a bound

    @Test func anUpdateOfABoundedKeyStartsFromTheValueARead() {
        var administration = DefaultsAdministration(source: "hostile.bounds")
        administration.limit(.upload, to: 1...50)
        let store = DefaultsStore.inMemory(administration: administration)
        #expect(store[.upload] == 50, "the code's 100, moved inside")
        let (_, errors) = ReportedErrors.during {
            store.update(.upload) { _ in }
            store.update(.upload) { $0 -= 1 }
        }
        #expect(errors.isEmpty, "\(errors)")
        #expect(store[.upload] == 49)
    }

    @Test func anInitialValueOutsideABoundReadsInsideItAndReportsNothing() {
        let key = DefaultsKey<Int>("quota", initialValue: 100)
        var administration = DefaultsAdministration(source: "hostile.bounds")
        administration.limit(key, to: 1...50)
        let store = DefaultsStore.inMemory(administration: administration)
        let (_, errors) = ReportedErrors.during {
            #expect(store[key] == 50)
            #expect(store[key] == 50)
        }
        #expect(errors.isEmpty, "a read writes nothing the administrator refuses: \(errors)")
        #expect(store.storedValue(forKey: "quota") == nil)
        store.administer(nil)
        #expect(store[key] == 100 && store.storedValue(forKey: "quota") == .integer(100))
    }

    @Test func aStoredValueOfTheWrongTypeReadsInsideTheBound() throws {
        let store = DefaultsStore.inMemory()
        try store.editStoredValues { $0["maxUploadMB"] = .string("lots") }
        var administration = DefaultsAdministration(source: "hostile.bounds")
        administration.limit(.upload, to: 1...50)
        store.administer(administration)
        let (_, errors) = ReportedErrors.during {
            #expect(store[.upload] == 50, "never outside the administrator's range")
            #expect(store[.upload] == 50)
        }
        #expect(errors.count == 1, "the unreadable value, once: \(errors)")
        #expect(store.userValue(of: .upload) == nil)
    }

    @Test func aStoredValueOfTheWrongTypeReadsTheAdministratorsDefault() throws {
        var administration = DefaultsAdministration(source: "hostile.plist")
        administration.setDefault(20, for: .upload)
        let store = DefaultsStore.inMemory()
        try store.editStoredValues { $0["maxUploadMB"] = .string("lots") }
        store.administer(administration)
        let (read, _) = ReportedErrors.during { store[.upload] }
        #expect(read == 20, "the administrator's default, the next layer down")
        #expect(store.valueSource(of: .upload) == .administratorDefault(from: "hostile.plist"))
    }

    @Test func extremeStoredValuesClampToTheNearestEnd() throws {
        let store = DefaultsStore.inMemory()
        var administration = DefaultsAdministration(source: "hostile.bounds")
        administration.limit(.upload, to: -5...50)
        administration.limit(.ratio, to: 0.0...1.0)
        // Each stored while no bound holds (a write past one is refused), then read under it.
        let integers: [(DefaultsStoredValue, Int)] = [
            (.integer(Int64.max), 50), (.unsignedInteger(UInt64.max), 50), (.integer(Int64.min), -5),
            (.integer(50), 50), (.integer(-5), -5),
            // No integer (an `Int` key reads none): the code's 100, moved inside, as for any
            // value of the wrong type.
            (.real(-.infinity), 50), (.real(.nan), 50), (.real(-7), 50),
        ]
        for (stored, expected) in integers {
            store.administer(nil)
            try store.editStoredValues { $0["maxUploadMB"] = stored }
            store.administer(administration)
            let (read, _) = ReportedErrors.during { store[.upload] }
            #expect(read == expected, "\(stored)")
        }
        let reals: [(DefaultsStoredValue, Double)] = [
            (.real(.nan), 0), (.real(.infinity), 1), (.real(-.infinity), 0), (.real(1.0000001), 1),
            (.integer(Int64.max), 1), (.unsignedInteger(UInt64.max), 1), (.real(1), 1), (.real(0), 0),
        ]
        for (stored, expected) in reals {
            store.administer(nil)
            try store.editStoredValues { $0["ratio"] = stored }
            store.administer(administration)
            #expect(store[.ratio] == expected, "\(stored)")
        }
    }

    @Test func anIntegerKeyUnderAFractionalBoundRoundsInwards() throws {
        var administration = DefaultsAdministration(source: "hostile.bounds")
        administration.layer.bounds["maxUploadMB"] = (.range(minimum: 1.5, maximum: 2.5), "hostile.bounds")
        let store = DefaultsStore.inMemory()
        store[.upload] = 0
        store.administer(administration)
        #expect(store[.upload] == 2, "0, moved inside and a whole number")
        store.administer(nil)
        store.reset(.upload)
        store.administer(administration)
        #expect(store[.upload] == 2, "the code's 100, moved inside and a whole number")
        let (_, errors) = ReportedErrors.during {
            store[.upload] = 1
            store[.upload] = 3
            store[.upload] = 2
        }
        #expect(errors.count == 2 && store[.upload] == 2, "\(errors)")
    }

    @Test func aRangeOnABoolOrAStringJudgesNothing() {
        let name = DefaultsKey<String>("name", default: "x")
        var administration = DefaultsAdministration(source: "hostile.bounds")
        administration.layer.bounds["telemetry"] = (.range(minimum: 1, maximum: 2), "hostile.bounds")
        administration.layer.bounds["name"] = (.range(minimum: 1, maximum: 2), "hostile.bounds")
        let store = DefaultsStore.inMemory(administration: administration)
        let (_, errors) = ReportedErrors.during {
            store[.telemetry] = false
            store[name] = "y"
        }
        #expect(errors.isEmpty && store[.telemetry] == false && store[name] == "y", "\(errors)")
        #expect(store.valueSource(of: .telemetry) == .user)
    }

    @Test func anAllowedListOfMixedTypesComparesAsStored() {
        var administration = DefaultsAdministration(source: "hostile.bounds")
        administration.layer.bounds["maxUploadMB"] = (
            .allowed([StoredObject(10), StoredObject("20"), StoredObject(true)]), "hostile.bounds"
        )
        let store = DefaultsStore.inMemory(administration: administration)
        let (_, errors) = ReportedErrors.during {
            store[.upload] = 20
            store[.upload] = 1
            store[.upload] = 10
        }
        #expect(errors.count == 2 && store[.upload] == 10, "\(errors)")
    }

    // MARK: - The administrator's files

    @Test func aLocksFileOfOnlyAStarWithABOMAndCRLFLocksEverything() throws {
        let machine = try ManagedMachine()
        defer { machine.remove() }
        try Data([0xEF, 0xBB, 0xBF] + Array("# all\r\n*\r\n".utf8)).write(to: machine.adminFile("locks"))
        let store = machine.store()
        #expect(!store.isWritable(.telemetry) && !store.isWritable(.free) && !store.isWritable(.composed))
        #expect(store.valueSource(of: .free) == .locked(by: machine.adminFile("locks").path))
    }

    @Test func aLocksFileOfAMegabyteOfKeysIsReadWhole() throws {
        let machine = try ManagedMachine()
        defer { machine.remove() }
        var text = "\u{FEFF}"
        var index = 0
        while text.utf8.count < 1 << 20 {
            text += "key.number.\(index)\r\n"
            index += 1
        }
        text += "telemetry"
        try Data(text.utf8).write(to: machine.adminFile("locks"))
        let store = machine.store()
        #expect(!store.isWritable(.telemetry) && store.isWritable(.free))
        #expect(!store.administration(ofKey: "key.number.0").isWritable)
        #expect(!store.administration(ofKey: "key.number.\(index - 1)").isWritable)
        #expect(store.administration(ofKey: "key.number.\(index)").isWritable)
    }

    @Test func aLocksFileRewrittenInPlaceWhileReadEndsAsItsLastVersion() throws {
        let machine = try ManagedMachine()
        defer { machine.remove() }
        let store = machine.store()
        store[.free] = 3
        let locks = machine.adminFile("locks")
        let done = Counter()
        let strange = Counter()
        DispatchQueue.concurrentPerform(iterations: 2) { index in
            if index == 0 {
                for round in 0..<200 {
                    guard let handle = FileHandle(forWritingAtPath: locks.path) ?? Self.created(locks) else { break }
                    try? handle.truncate(atOffset: 0)
                    try? handle.write(contentsOf: Data((round.isMultiple(of: 2) ? "free\n" : "# none\n").utf8))
                    try? handle.close()
                    store.ownState.rereadAdministration()
                }
                done.increment()
            } else {
                while done.value == 0 {
                    let free = store[.free]
                    if free != 3 && free != 7 { strange.increment() }
                    _ = store.isWritable(.free)
                }
            }
        }
        store.ownState.rereadAdministration()
        #expect(strange.value == 0, "only the user's value, or the code's under the lock")
        #expect(store.isWritable(.free) && store[.free] == 3, "the last version locks nothing")
        #expect(store.storedValue(forKey: "free") == .integer(3))
    }

    @Test func aLocksFileReplacedByARenameOrAFolderRemadeIsSeen() throws {
        let machine = try ManagedMachine()
        defer { machine.remove() }
        let store = machine.store()
        #expect(store.isWritable(.free))
        let temporary = machine.admin.appendingPathComponent(".locks.tmp")
        try Data("free\n".utf8).write(to: temporary)
        #expect(rename(temporary.path, machine.adminFile("locks").path) == 0)
        store.ownState.rereadAdministration()
        #expect(!store.isWritable(.free))
        try FileManager.default.removeItem(at: machine.admin)
        store.ownState.rereadAdministration()
        #expect(store.isWritable(.free))
        try FileManager.default.createDirectory(at: machine.admin, withIntermediateDirectories: true)
        try Data("telemetry\n".utf8).write(to: machine.adminFile("locks"))
        store.ownState.rereadAdministration()
        #expect(store.isWritable(.free) && !store.isWritable(.telemetry))
    }

    // MARK: - Concurrency

    @Test func writersAndALayerTogglingOnOtherThreadsNeitherDeadlockNorLoseTheUsersValue() {
        let source = "hostile-\(UUID().uuidString).locks"
        let reads = Counter()
        let store = DefaultsStore.inMemory()
        let key = DefaultsKey<Int>("counter", default: 0).didSet { _, _ in
            // A callback that reads the same store, as a view model's redraw does.
            _ = store[.free]
            reads.increment()
        }
        let locked = {
            var administration = DefaultsAdministration(source: source)
            administration.lock(key, to: -1)
            administration.limit(.free, to: 0...1000)
            return administration
        }()
        let observation = store.observe(key) { _ in _ = store.isWritable(.free) }
        defer { observation.cancel() }
        let (_, errors) = ReportedErrors.during {
            DispatchQueue.concurrentPerform(iterations: 5) { index in
                for round in 0..<300 {
                    if index == 0 {
                        store.administer(round.isMultiple(of: 2) ? locked : nil)
                    } else if index == 1 {
                        store.update(.free) { $0 = round }
                        _ = store[key]
                    } else {
                        store[key] = round
                        _ = store.valueSource(of: key)
                        _ = store.administration(ofKey: "counter")
                    }
                }
            }
        }
        #expect(errors.allSatisfy { "\($0)".contains(source) || "\($0)".contains("counter") }, "\(errors.prefix(3))")
        store.administer(nil)
        #expect(reads.value > 0 && store.isWritable(key) && store[.free] == 299)
        store[key] = 5
        #expect(store[key] == 5 && store.userValue(of: key) == 5)
    }

    private static func created(_ url: URL) -> FileHandle? {
        guard FileManager.default.createFile(atPath: url.path, contents: nil) else { return nil }
        return FileHandle(forWritingAtPath: url.path)
    }
}
