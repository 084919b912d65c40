import Foundation
import Observation
import Testing
import TypedDefaultsTestSupport

@testable import TypedDefaults

extension DefaultsKeys {
    fileprivate static let telemetry = DefaultsKey<Bool>("telemetry", default: true)
    fileprivate static let channel = DefaultsKey<String>("updateChannel", default: "beta")
    fileprivate static let upload = DefaultsKey<Int>("maxUploadMB", default: 100)
    fileprivate static let proxy = DefaultsKey<String>("net.proxy", default: "direct")
    fileprivate static let free = DefaultsKey<Int>("free", default: 7)
    fileprivate static let flavour = DefaultsKey<String>("flavour", default: "vanilla")
}

extension DefaultsAdministration {
    /// A lock, a default, a bound, a prefix lock and a list, as a managed machine's files give them.
    fileprivate static var organisation: DefaultsAdministration {
        var administration = DefaultsAdministration(source: "/etc/xdg/example.locks")
        administration.lock(.telemetry, to: false)
        administration.setDefault("stable", for: .channel)
        administration.limit(.upload, to: 1...50)
        administration.lock(keysWithPrefix: "net.")
        administration.allow(["vanilla", "lemon"], for: .flavour)
        return administration
    }
}

/// A model a view reads: a lock appearing must make it read the key again.
@Observable private final class TelemetryModel {
    @ObservationIgnored @UserDefault<Bool> var telemetry: Bool

    init(store: DefaultsStore) {
        _telemetry = UserDefault(.telemetry, store: store)
    }
}

/// An administrator's layer read and enforced by the store itself, through every handle.
@Suite struct ManagedLayerTests {
    let file = "/etc/xdg/example.locks"

    @Test func readsGoThroughTheLayersInOrder() {
        let store = DefaultsStore.inMemory(administration: .organisation)
        #expect(store[.telemetry] == false)
        #expect(store[.channel] == "stable")
        #expect(store[.upload] == 50, "the code's default, 100, moved inside the administrator's range")
        #expect(store[.proxy] == "direct")
        #expect(store[.free] == 7)
        #expect(store.valueSource(of: .telemetry) == .locked(by: file))
        #expect(store.valueSource(of: .proxy) == .locked(by: file))
        #expect(store.valueSource(of: .channel) == .administratorDefault(from: file))
        #expect(store.valueSource(of: .free) == .codeDefault)
        #expect(!store.isWritable(.telemetry) && !store.isWritable(.proxy))
        #expect(store.isWritable(.channel) && store.isWritable(.upload) && store.isWritable(.free))
        #expect(store.administratorDefault(of: .channel) == "stable")
        #expect(store.administratorDefault(of: .free) == nil)
    }

    @Test func aLockRefusesEveryWriteAndNamesTheFile() throws {
        let store = DefaultsStore.inMemory(administration: .organisation)
        let (_, errors) = ReportedErrors.during {
            store[.telemetry] = true
            store.reset(.telemetry)
            store.update(.telemetry) { $0 = true }
            store[.proxy] = "socks://evil"
            UserDefault(.proxy, store: store).reset()
        }
        #expect(store[.telemetry] == false && store[.proxy] == "direct")
        #expect(store.userValue(of: .telemetry) == nil)
        #expect(errors.count == 5)
        for error in errors {
            guard case .locked(_, let path) = error else {
                Issue.record("not a lock's refusal: \(error)")
                continue
            }
            #expect(path == file)
        }
        #expect("\(errors[0])".contains("locked by your administrator in \(file)"))
    }

    @Test func anEditTouchingALockedKeyIsRefusedWhole() throws {
        let store = DefaultsStore.inMemory(administration: .organisation)
        store[.free] = 1
        #expect(throws: DefaultsError.self) {
            try store.editStoredValues { values in
                values["free"] = 2
                values["telemetry"] = true
            }
        }
        #expect(store[.free] == 1 && store[.telemetry] == false)
        let (_, errors) = ReportedErrors.during {
            #expect(throws: DefaultsError.self) {
                try store.migrate([.renameKey("free", to: "net.free")])
            }
        }
        #expect(errors.count == 1)
        #expect(store[.free] == 1 && store.migrationVersion == 0)
    }

    @Test func boundsNarrowWritesWithoutFixingTheValue() {
        let store = DefaultsStore.inMemory(administration: .organisation)
        let (_, errors) = ReportedErrors.during {
            store[.upload] = 20
            store[.upload] = 60
            store[.flavour] = "lemon"
            store[.flavour] = "durian"
        }
        #expect(store[.upload] == 20 && store.valueSource(of: .upload) == .user)
        #expect(store[.flavour] == "lemon")
        #expect(errors.count == 2, "\(errors)")
        if case .outsideAdministratorBounds(let key, let path, let bounds) = errors.first {
            #expect(key == "maxUploadMB" && path == file && bounds == "1 to 50")
        } else {
            Issue.record("not a bound's refusal: \(errors)")
        }
        #expect("\(errors.last.map(String.init(describing:)) ?? "")".contains(#"one of "vanilla", "lemon""#))
    }

    @Test func theUsersValueIsKeptUnderALockAndBackWhenItGoes() {
        let store = DefaultsStore.inMemory()
        store[.telemetry] = false
        store[.channel] = "nightly"
        store[.upload] = 80
        var administration = DefaultsAdministration.organisation
        administration.lock(.channel, to: "stable")
        store.administer(administration)
        #expect(store[.telemetry] == false && store[.channel] == "stable")
        #expect(store[.upload] == 50, "a stored value outside the range reads as its nearest end")
        #expect(store.userValue(of: .channel) == "nightly" && store.userValue(of: .upload) == 80)
        #expect(store.storedValue(forKey: "maxUploadMB") == .integer(80), "the stored bytes stay")
        store.administer(nil)
        #expect(store[.channel] == "nightly" && store[.upload] == 80 && store[.telemetry] == false)
        #expect(store.isWritable(.channel) && store.valueSource(of: .channel) == .user)
    }

    @Test func resetReturnsToTheAdministratorsDefault() {
        let store = DefaultsStore.inMemory(administration: .organisation)
        store[.channel] = "nightly"
        #expect(store[.channel] == "nightly")
        store.reset(.channel)
        #expect(store[.channel] == "stable" && store.valueSource(of: .channel) == .administratorDefault(from: file))
    }

    @Test func aLockAppearingOrGoingIsHeardAsAChange() {
        let store = DefaultsStore.inMemory()
        store[.channel] = "nightly"
        let heard = Collected<DefaultsValueChange<String>>()
        let observation = store.observe(.channel) { heard.append($0) }
        defer { observation.cancel() }
        var administration = DefaultsAdministration(source: "/etc/xdg/example.locks")
        administration.lock(.channel)
        store.administer(administration)
        store.administer(nil)
        heard.wait(for: 2)
        #expect(heard.all.map(\.newValue) == ["beta", "nightly"])
        #expect(heard.all.map(\.origin) == [.otherProcess, .otherProcess])
    }

    @Test func aRefusedWriteRunsNoDidSet() {
        let calls = Counter()
        let key = DefaultsKey<Bool>("telemetry", default: true).didSet { _, _ in calls.increment() }
        let store = DefaultsStore.inMemory(administration: .organisation)
        _ = ReportedErrors.during { store[key] = true }
        #expect(calls.value == 0 && store[key] == false)
    }

    @Test func aWrapperInAClassIsReadOnlyUnderALock() {
        final class Settings {
            @UserDefault(.telemetry, store: .inMemory(administration: .organisation)) var telemetry: Bool
        }
        let settings = Settings()
        let (_, errors) = ReportedErrors.during { settings.telemetry = true }
        #expect(settings.telemetry == false && !settings.$telemetry.isWritable && errors.count == 1)
        #expect(settings.$telemetry.valueSource == .locked(by: file))
    }

    @Test(.isolatedDefaults(administration: .organisation))
    func theIsolationTraitManagesEveryCopy() {
        #expect(DefaultsStore.standard[.telemetry] == false)
        #expect(!DefaultsStore.standard.isWritable(.telemetry))
        let (_, errors) = ReportedErrors.during { DefaultsStore.standard[.telemetry] = true }
        #expect(errors.count == 1 && DefaultsStore.standard[.telemetry] == false)
    }

    @Test func aSuiteNoAdministratorManagesReadsAsBefore() {
        let store = DefaultsStore.inMemory()
        #expect(store.isWritable(.telemetry) && store.valueSource(of: .telemetry) == .codeDefault)
        store[.telemetry] = false
        #expect(store.valueSource(of: .telemetry) == .user && store.userValue(of: .telemetry) == false)
        #expect(store.administratorDefault(of: .telemetry) == nil)
    }

    @Test func anObservableModelHearsWhetherItMayBeWrittenChange() {
        let store = DefaultsStore.inMemory()
        let model = TelemetryModel(store: store)
        let changes = Counter()
        withObservationTracking {
            _ = model.telemetry
        } onChange: {
            changes.increment()
        }
        var administration = DefaultsAdministration(source: file)
        administration.lock(.telemetry)
        store.administer(administration)
        #expect(changes.value == 1, "the value stayed true; only whether it may be written changed")
        #expect(!model.$telemetry.isWritable && model.telemetry == true)
    }

    @Test func observersHearTheValueInForceFromTheStart() {
        let store = DefaultsStore.inMemory()
        store[.telemetry] = true
        var administration = DefaultsAdministration(source: file)
        administration.lock(.telemetry, to: false)
        store.administer(administration)
        let heard = Collected<DefaultsValueChange<Bool>>()
        let observation = store.observe(.telemetry, initial: true) { heard.append($0) }
        defer { observation.cancel() }
        #expect(heard.wait(for: 1).map(\.newValue) == [false], "the locked value, not the user's")
    }

    @Test func aResetUnderARangeIsHeardAsTheValueARead() {
        var administration = DefaultsAdministration(source: file)
        administration.limit(.upload, to: 1...50)
        let store = DefaultsStore.inMemory(administration: administration)
        store[.upload] = 40
        let calls = Collected<Int>()
        let key = DefaultsKey<Int>("maxUploadMB", default: 100).didSet { new, _ in calls.append(new) }
        let heard = Collected<Int>()
        let observation = store.observe(.upload) { heard.append($0.newValue) }
        defer { observation.cancel() }
        store.reset(key)
        #expect(store[.upload] == 50)
        #expect(heard.wait(for: 1) == [50])
        #expect(calls.all == [50])
    }
}
