import Foundation
import Testing
import TypedDefaults

/// A settings class shared across threads, `Sendable` without `@unchecked`: `let`s of handles,
/// read and written through computed properties.
final class SharedSettings: Sendable {
    let volumeSetting: UserDefault<Int>
    var volume: Int {
        get { volumeSetting.wrappedValue }
        set { volumeSetting.wrappedValue = newValue }
    }

    init(store: DefaultsStore) {
        volumeSetting = UserDefault(wrappedValue: 5, "volume", store: store)
    }
}

@Suite struct SendableSettingsTests {
    @Test func aSendableSettingsClassIsSharedAcrossTasks() async {
        let store = DefaultsStore.inMemory()
        let settings = SharedSettings(store: store)
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<8 { group.addTask { settings.volumeSetting.update { $0 += 1 } } }
        }
        #expect(settings.volume == 13, "every task's update kept")
        #expect(SharedSettings(store: store).volume == 13, "another instance reads the same key")
        settings.volume = 2
        #expect(store[DefaultsKey<Int>("volume", default: 0)] == 2)
        settings.volumeSetting.reset()
        #expect(settings.volume == 5)
    }
}
