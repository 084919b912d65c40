import Foundation
import Testing
import TypedDefaults

extension DefaultsKeys {
    static let volume = DefaultsKey<Double>("settings.volume", default: 0.5)
    static let theme = DefaultsKey<Theme>("settings.theme", default: .system)
}

@Suite struct SettingTests {
    /// Steps `setting` `count` times up (or down) and returns each value reached.
    func walk<Value: DefaultsSteppable>(_ setting: Setting<Value>, _ count: Int, upward: Bool = true) -> [Value] {
        (0..<count).map { _ in
            upward ? setting.increase() : setting.decrease()
            return setting.wrappedValue
        }
    }

    // MARK: Numbers

    @Test func tenStepsOfAPointOneLandOnOne() {
        let volume = Setting(.volume, range: 0...1, step: 0.1, store: .inMemory())
        volume.wrappedValue = 0
        let up = walk(volume, 10)
        #expect(up == [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0], "no drift: \(up)")
        #expect(volume.isAtMax)
        #expect(walk(volume, 1) == [1.0], "at the bound, a step stays there")
        let down = walk(volume, 10, upward: false)
        #expect(down == [0.9, 0.8, 0.7, 0.6, 0.5, 0.4, 0.3, 0.2, 0.1, 0.0], "no drift: \(down)")
        #expect(volume.isAtMin)
    }

    @Test func floatStepsDoNotDriftEither() {
        let gain = Setting<Float>(wrappedValue: 0, "gain", range: -1...1, step: 0.05, store: .inMemory())
        let up = walk(gain, 21)
        let decimals: [Float] = [0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5]
        #expect(Array(up.prefix(10)) == decimals, "each lands on the Float nearest the decimal")
        #expect(up.suffix(2) == [1, 1])
        let down = walk(gain, 41, upward: false)
        #expect(down[19] == 0)
        #expect(down[25] == -0.3)
        #expect(down.suffix(2) == [-1, -1])
    }

    @Test func aStepThatOvershootsLandsOnTheBound() {
        let count = Setting(wrappedValue: 0, "count", range: 0...10, step: 3, store: .inMemory())
        #expect(walk(count, 5) == [3, 6, 9, 10, 10])
        #expect(walk(count, 5, upward: false) == [9, 6, 3, 0, 0], "down from an off-grid bound: the grid below")
    }

    @Test func offGridValuesStepToTheNeighbouringGridValues() {
        let volume = Setting(.volume, range: 0...1, step: 0.1, store: .inMemory())
        volume.wrappedValue = 0.55
        volume.increase()
        #expect(volume.wrappedValue == 0.6)
        volume.wrappedValue = 0.55
        volume.decrease()
        #expect(volume.wrappedValue == 0.5)
    }

    @Test func minEqualToMax() {
        let fixed = Setting(wrappedValue: 3, "fixed", range: 5...5, step: 1, store: .inMemory())
        #expect(fixed.wrappedValue == 5, "the default is kept within the bounds too")
        #expect(fixed.isAtMin && fixed.isAtMax)
        fixed.increase()
        fixed.decrease()
        fixed.wrappedValue = 9
        #expect(fixed.wrappedValue == 5)
    }

    @Test func negativeStepsAndNegativeRanges() {
        let negative = Setting(wrappedValue: 0, "negativeStep", range: 0...10, step: -2, store: .inMemory())
        #expect(negative.step == -2)
        #expect(walk(negative, 2) == [2, 4], "a step counts by its magnitude: increase goes up")
        #expect(walk(negative, 3, upward: false) == [2, 0, 0])
        let below = Setting(wrappedValue: -10, "negativeRange", range: -10...(-1), step: 3, store: .inMemory())
        #expect(walk(below, 4) == [-7, -4, -1, -1])
        let cold = Setting<Double>(wrappedValue: -40, "cold", range: -40...(-39), step: 0.25, store: .inMemory())
        #expect(walk(cold, 4) == [-39.75, -39.5, -39.25, -39])
    }

    @Test func aStepLargerThanTheRange() {
        let small = Setting(wrappedValue: 0, "small", range: 0...1, step: 5, store: .inMemory())
        #expect(walk(small, 2) == [1, 1])
        #expect(walk(small, 2, upward: false) == [0, 0])
        let tiny = Setting<Double>(wrappedValue: 0, "tiny", range: 0...0.5, step: 10, store: .inMemory())
        #expect(walk(tiny, 1) == [0.5])
    }

    @Test func aZeroStepGoesToTheBound() {
        let jump = Setting(wrappedValue: 5, "jump", range: 0...10, step: 0, store: .inMemory())
        #expect(walk(jump, 1) == [10])
        #expect(walk(jump, 1, upward: false) == [0])
    }

    @Test func integersNeverOverflow() {
        let big = Setting(wrappedValue: Int.max - 5, "big", range: 0...Int.max, step: 10, store: .inMemory())
        #expect(walk(big, 2) == [Int.max, Int.max])
        let whole = Setting(wrappedValue: Int.min, "whole", range: Int.min...Int.max, step: Int.max, store: .inMemory())
        #expect(walk(whole, 3) == [-1, Int.max - 1, Int.max])
        #expect(walk(whole, 3, upward: false) == [Int.max - 1, -1, Int.min])
        let unsigned = Setting(
            wrappedValue: UInt64.max - 1, "unsigned", range: 1...UInt64.max, step: 4, store: .inMemory())
        #expect(walk(unsigned, 1) == [UInt64.max])
        #expect(walk(unsigned, 1, upward: false) == [UInt64.max - 2], "the grid from 1: 1, 5, 9, …")
        let byte = Setting<Int8>(wrappedValue: 120, "byte", range: .min ... .max, step: 100, store: .inMemory())
        #expect(walk(byte, 1) == [Int8.max])
        #expect(walk(byte, 3, upward: false) == [72, -28, -128])
    }

    @Test func aNumberWithoutBoundsStepsByOneOverItsType() {
        let launches = Setting(wrappedValue: Int.max - 1, "launches", store: .inMemory())
        #expect(launches.min == Int.min && launches.max == Int.max && launches.step == 1)
        #expect(walk(launches, 2) == [Int.max, Int.max])
        let level = Setting(wrappedValue: 0.5, "level", store: .inMemory())
        #expect(walk(level, 2) == [1, 2], "the grid of whole numbers")
        #expect(!level.isAtMax)
    }

    @Test func aNumberTypeOfTheAppsOwnStepsByItsArithmeticWithinItsRange() {
        let price = Setting(
            wrappedValue: Decimal(string: "0.5") ?? 0, "price", range: 0...1, step: Decimal(string: "0.3") ?? 0,
            store: .inMemory())
        #expect(walk(price, 3).map { "\($0)" } == ["0.8", "1", "1"], "overshooting lands on the bound")
        #expect(walk(price, 4, upward: false).map { "\($0)" } == ["0.7", "0.4", "0.1", "0"])
        let unbounded = Setting(wrappedValue: Decimal(7), "unbounded", store: .inMemory())
        #expect(unbounded.min == 7 && unbounded.max == 7, "no bounds to step within")
        #expect(walk(unbounded, 1) == [7])
        #expect(unbounded.isAtMin && unbounded.isAtMax)
        #expect(!unbounded.hasStoredValue, "a setting that does not step writes nothing")
    }

    @Test func aFloatingPointTypeOfTheAppsOwnStepsWithoutDrift() {
        let scale = Setting(wrappedValue: CGFloat(0.3), "scale", range: 0...1, step: 0.1, store: .inMemory())
        #expect(walk(scale, 8) == [0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1, 1])
        let price = Setting(
            wrappedValue: Decimal(5), "price", range: 0...10, step: Decimal(-2), store: .inMemory())
        #expect(walk(price, 3) == [7, 9, 10], "a negative step counts as its magnitude")
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func anIntegerTypeOfTheAppsOwnStepsOnTheGridWithoutOverflow() {
        let wide = Setting(wrappedValue: Int128(4), "wide", range: 0...10, step: 3, store: .inMemory())
        #expect(walk(wide, 3) == [6, 9, 10], "the grid from the lower bound, as Int steps")
        let top = Setting(wrappedValue: Int128.max - 1, "top", range: 0...Int128.max, step: 5, store: .inMemory())
        #expect(walk(top, 2) == [Int128.max, Int128.max])
        let bottom = Setting(wrappedValue: UInt128(0), "bottom", range: 0...10, store: .inMemory())
        #expect(walk(bottom, 2, upward: false) == [0, 0])
        let full = Setting(wrappedValue: UInt128.max, "full", store: .inMemory())
        #expect(full.max == .max && walk(full, 1) == [.max])
    }

    @Test func valuesStayInBoundsHoweverTheyAreSet() throws {
        let suite = try TestSuite()
        let volume = Setting(.volume, range: 0...1, step: 0.1, store: suite.store)
        volume.wrappedValue = 5
        #expect(volume.wrappedValue == 1)
        #expect(try suite.flushedObject(forKey: "settings.volume") as? Double == 1, "never stored out of bounds")
        UserDefault(wrappedValue: 0.0, "settings.volume", store: suite.store).wrappedValue = -3
        #expect(volume.wrappedValue == 0, "another handle's write reads within bounds")
        suite.store[.volume] = 7
        #expect(volume.wrappedValue == 1)
    }

    @Test func anExternalWriteOutOfBoundsReadsWithinThemAndStaysStored() throws {
        let suite = try TestSuite()
        suite.plant(42.0, forKey: "settings.volume")
        let before = try suite.fileBytes()
        let volume = Setting(.volume, range: 0...1, step: 0.1, store: suite.store)
        #expect(volume.wrappedValue == 1)
        #expect(volume.isAtMax)
        #expect(try suite.fileBytes() == before, "a read does not rewrite stored data")
        volume.decrease()
        #expect(volume.wrappedValue == 0.9)
    }

    @Test func stepsAreAtomic() {
        let counter = Setting(wrappedValue: 0, "counter", range: 0...1000, step: 1, store: .inMemory())
        DispatchQueue.concurrentPerform(iterations: 200) { _ in counter.increase() }
        #expect(counter.wrappedValue == 200)
    }

    @Test func unreadableStoredDataStepsFromTheDefault() throws {
        let suite = try TestSuite()
        suite.plant("loud", forKey: "settings.volume")
        let volume = Setting(.volume, range: 0...1, step: 0.1, store: suite.store)
        let (formatted, reported) = ReportedErrors.during { volume.formattedValue }
        #expect(formatted == "0.5")
        #expect(reported.count == 1)
        let (_, stepping) = ReportedErrors.during { volume.increase() }
        #expect(stepping.count == 1, "reported again: the step replaces what could not be read")
        #expect(volume.wrappedValue == 0.6)
    }

    // MARK: Flags

    @Test func flags() {
        let shuffle = Setting(wrappedValue: false, "shuffle", title: "Shuffle", store: .inMemory())
        #expect(!shuffle.wrappedValue)
        #expect(!shuffle.hasStoredValue)
        shuffle.toggle()
        #expect(shuffle.wrappedValue)
        shuffle.toggle()
        #expect(!shuffle.wrappedValue)
        #expect(shuffle.hasStoredValue, "an explicit false is stored")
        DispatchQueue.concurrentPerform(iterations: 100) { _ in shuffle.toggle() }
        #expect(!shuffle.wrappedValue, "an even number of atomic toggles")
    }

    // MARK: Metadata

    @Test func titleInfoAndFormat() {
        let store = DefaultsStore.inMemory()
        let volume = Setting(
            .volume, title: "Volume", info: "How loud playback is", range: 0...1, step: 0.1,
            format: { "\(Int(($0 * 100).rounded())) %" }, store: store)
        #expect(volume.title == "Volume")
        #expect(volume.info == "How loud playback is")
        #expect(volume.key == "settings.volume")
        #expect(volume.formattedValue == "50 %")
        volume.increase()
        #expect(volume.formattedValue == "60 %")
        #expect(volume.formatted(0.25) == "25 %")
        let untitled = Setting<String?>("nickname", store: store)
        #expect(untitled.title == "nickname", "the key when no title is given")
        #expect(untitled.info.isEmpty)
        #expect(untitled.formattedValue == "nil")
        untitled.wrappedValue = "Bobbie"
        #expect(untitled.formattedValue == "Bobbie", "optionals are shown unwrapped")
    }

    /// What a property tells, a setting tells too, read through it; what a property does, a
    /// setting does through ``Setting/property``.
    @Test func aSettingReadsItsPropertysPropertiesThroughIt() {
        let store = DefaultsStore.inMemory()
        let volume = Setting(.volume, range: 0...1, step: 0.1, store: store)
        #expect(volume.key == "settings.volume")
        volume.store[.volume] = 0.3
        #expect(store[.volume] == 0.3, "the setting's store is the one it was given")
        volume.property.reset()
        #expect(volume.isDefaultValue && !volume.hasStoredValue)
        volume.increase()
        #expect(!volume.isDefaultValue && volume.hasStoredValue)
        volume.property.reset()
        #expect(volume.isDefaultValue && !volume.hasStoredValue)
    }

    @Test func settingsAreObservable() throws {
        let store = DefaultsStore.inMemory()
        let volume = Setting(.volume, range: 0...1, step: 0.1, store: store)
        let seen = Collected<DefaultsValueChange<Double>>()
        let observation = volume.property.observe { seen.append($0) }
        volume.increase()
        store[.volume] = 9
        volume.property.reset()
        #expect(seen.wait(for: 3).map(\.newValue) == [0.6, 1, 0.5])
        observation.cancel()
    }

    @Test func settingsAsPropertyWrappers() {
        struct Player {
            @Setting(wrappedValue: false, "wrapped.shuffle", title: "Shuffle", store: Player.store) var shuffle
            @Setting(wrappedValue: 3, "wrapped.speed", range: 1...5, store: Player.store) var speed
            static let store = DefaultsStore.inMemory()
        }
        let player = Player()
        player.$shuffle.toggle()
        player.$speed.increase()
        #expect(player.shuffle)
        #expect(player.speed == 4)
        player.speed = 99
        #expect(player.speed == 5)
    }
}

/// A number type of the app's own, stepped by its own arithmetic.
extension Decimal: DefaultsSteppable {}

/// A floating-point type of the app's own, stepped as `Double` is.
extension CGFloat: DefaultsSteppable {}

/// Integer types of the app's own, stepped as the library's integers are.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
extension Int128: DefaultsSteppable {}

@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
extension UInt128: DefaultsSteppable {}
