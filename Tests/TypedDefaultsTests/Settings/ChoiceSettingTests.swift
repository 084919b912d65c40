import Foundation
import Testing
import TypedDefaultsSchema

@testable import TypedDefaults

/// Eight options, for stepping from many threads at once.
enum PlaybackSpeed: String, CaseIterable, DefaultsValueConvertible {
    case quarter, half, threeQuarters, normal, oneAndAQuarter, oneAndAHalf, double, quadruple
}

/// An enum as a later version of a program declares it: `sepia` was a case of an earlier one.
enum Scheme: String, CaseIterable, DefaultsValueConvertible {
    case light, dark, system
}

enum OnlyChoice: Int, CaseIterable, DefaultsValueConvertible {
    case only = 1
}

/// A type whose `allCases` are the values it allows, of more it could hold.
struct Bitrate: CaseIterable, Equatable, DefaultsValueConvertible, RawRepresentable {
    let rawValue: Int
    static let allCases = [Bitrate(rawValue: 128), Bitrate(rawValue: 256), Bitrate(rawValue: 320)]
}

@Suite struct ChoiceSettingTests {
    /// Steps `setting` `count` times up (or down) and returns each value reached.
    func walk<Value: Equatable>(_ setting: Setting<Value>, _ count: Int, upward: Bool = true, wrapping: Bool = false)
        -> [Value]
    {
        (0..<count).map { _ in
            upward ? setting.increase(wrapping: wrapping) : setting.decrease(wrapping: wrapping)
            return setting.wrappedValue
        }
    }

    // MARK: Enums

    @Test func anEnumsCasesAreItsOptionsInDeclarationOrder() {
        let palette = Setting(wrappedValue: Scheme.system, "palette", store: .inMemory())
        #expect(palette.options == [.light, .dark, .system])
        let speed = Setting(wrappedValue: PlaybackSpeed.normal, "speed", store: .inMemory())
        #expect(speed.options == PlaybackSpeed.allCases)
        let name = Setting(wrappedValue: "Ada", "name", store: .inMemory())
        #expect(name.options.isEmpty, "a setting that may hold any value has no options")
        #expect(name.isAtMin && name.isAtMax)
        name.increase()
        #expect(name.wrappedValue == "Ada", "and nowhere to step")
    }

    @Test func steppingStopsAtBothEnds() {
        let palette = Setting(wrappedValue: Scheme.light, "palette", store: .inMemory())
        #expect(palette.isAtMin && !palette.isAtMax)
        #expect(walk(palette, 1, upward: false) == [.light], "below the first option: stays")
        #expect(palette.isAtMin)
        #expect(walk(palette, 3) == [.dark, .system, .system], "past the last option: stays")
        #expect(palette.isAtMax && !palette.isAtMin)
        #expect(walk(palette, 3, upward: false) == [.dark, .light, .light])
    }

    @Test func wrappingGoesRoundWhenAskedFor() {
        let palette = Setting(wrappedValue: Scheme.dark, "palette", store: .inMemory())
        #expect(walk(palette, 3, wrapping: true) == [.system, .light, .dark])
        #expect(walk(palette, 3, upward: false, wrapping: true) == [.light, .system, .dark])
    }

    @Test func aCaseIterableStructIsKeptToItsCases() throws {
        let store = DefaultsStore.inMemory()
        let bitrate = Setting(wrappedValue: Bitrate(rawValue: 256), "bitrate", store: store)
        #expect(bitrate.options == Bitrate.allCases)
        bitrate.wrappedValue = Bitrate(rawValue: 999)
        #expect(bitrate.wrappedValue == Bitrate(rawValue: 256), "a value that is none of its cases: the default")
        try store.editStoredValues { $0["bitrate"] = .integer(64) }
        #expect(bitrate.wrappedValue == Bitrate(rawValue: 256))
        #expect(try store.storedValues()["bitrate"] == .integer(64), "left as it was written")
        bitrate.increase()
        #expect(bitrate.wrappedValue == Bitrate(rawValue: 320))
        let outside = Setting(wrappedValue: Bitrate(rawValue: 1), "outside", store: store)
        #expect(outside.wrappedValue == Bitrate(rawValue: 128), "a default that is none of them: the first")
        // An enum's every value is one of its cases: its reads go through no rule.
        #expect(Setting(wrappedValue: Scheme.dark, "scheme", store: store).property.keyBinding.rules.isEmpty)
        #expect(!bitrate.property.keyBinding.rules.isEmpty)
    }

    @Test func aOneOptionSettingIsAtBothEnds() {
        let only = Setting(wrappedValue: OnlyChoice.only, "only", store: .inMemory())
        #expect(only.options == [.only])
        #expect(only.isAtMin && only.isAtMax)
        #expect(walk(only, 2) == [.only, .only])
        #expect(walk(only, 2, upward: false, wrapping: true) == [.only, .only])
        let listed = Setting(wrappedValue: "fixed", "listed", options: ["fixed"], store: .inMemory())
        #expect(listed.isAtMin && listed.isAtMax)
        listed.increase(wrapping: true)
        listed.wrappedValue = "other"
        #expect(listed.wrappedValue == "fixed")
        let number = Setting(wrappedValue: 3, "number", options: [3], store: .inMemory())
        #expect(number.min == 3 && number.max == 3 && number.isAtMin && number.isAtMax)
        #expect(walk(number, 2) == [3, 3])
        number.wrappedValue = Int.max
        #expect(number.wrappedValue == 3)
    }

    @Test func optionsWithEqualTitlesStayDistinct() throws {
        let store = DefaultsStore.inMemory()
        struct Screen: SettingsCatalog {
            @Setting var speed: PlaybackSpeed
        }
        // Two options formatted alike: stepping and the catalog go by value, not by title.
        let screen = Screen(
            speed: Setting(
                wrappedValue: .normal, "speed", title: "Speed",
                format: { $0 == .normal || $0 == .oneAndAQuarter ? "normal-ish" : $0.rawValue }, store: store))
        #expect(walk(screen.$speed, 2) == [.oneAndAQuarter, .oneAndAHalf])
        #expect(walk(screen.$speed, 2, upward: false) == [.oneAndAQuarter, .normal])
        guard case .choice(let options) = try #require(screen.catalog.first).kind else {
            Issue.record("not listed as a choice")
            return
        }
        #expect(options.map(\.title).filter { $0 == "normal-ish" }.count == 2)
        #expect(Set(options.map(\.value)).count == 8, "each option has its own stored value")
        #expect(options.filter(\.isSelected).map(\.value) == [.string("normal")], "only the value itself is selected")
    }

    @Test func anOptionRemovedFromTheEnumReadsAsTheDefaultIsReportedAndStaysStored() throws {
        let suite = try TestSuite()
        suite.plant("sepia", forKey: "palette")  // a case an earlier version had
        let before = try suite.fileBytes()
        let palette = Setting(wrappedValue: Scheme.system, "palette", title: "Scheme", store: suite.store)
        let (value, reported) = ReportedErrors.during { palette.wrappedValue }
        #expect(value == .system)
        #expect(reported.count == 1)
        guard case .typeMismatch(let key, _, let found)? = reported.first else {
            Issue.record("reported as \(reported)")
            return
        }
        #expect(key == "palette")
        #expect(found.contains("sepia"))
        #expect(palette.isAtMax, "the default is where it steps from")
        struct Screen: SettingsCatalog { @Setting var palette: Scheme }
        let (catalog, _) = ReportedErrors.during { Screen(palette: palette).catalog }
        #expect(catalog.first?.formattedValue == "system")
        #expect(try suite.fileBytes() == before, "reads leave the stored data as it is")
        let (_, stepping) = ReportedErrors.during { palette.decrease() }
        #expect(stepping.count == 1, "a step replaces what could not be read, and says so")
        #expect(palette.wrappedValue == .dark)
        #expect(try suite.flushedObject(forKey: "palette") as? String == "dark")
    }

    @Test func fortyThreadsStepEightOptionsAtomically() throws {
        let suite = try TestSuite()
        let speed = Setting(wrappedValue: PlaybackSpeed.quarter, "speed", store: suite.store)

        /// Runs `body` once on each of 40 threads, all started before any runs it. Each step is a
        /// commit that waits for the ones before it, and the wait is bounded (5 s): 200 threads
        /// on a loaded machine waited longer, and their steps were rightly refused.
        func onFortyThreads(_ body: @escaping @Sendable () -> Void) {
            let (start, done) = (DispatchGroup(), DispatchGroup())
            start.enter()
            for _ in 0..<40 {
                done.enter()
                let thread = Thread {
                    start.wait()
                    body()
                    done.leave()
                }
                thread.stackSize = 1 << 20
                thread.start()
            }
            start.leave()
            done.wait()
        }

        onFortyThreads { speed.increase() }
        #expect(speed.wrappedValue == .quadruple, "at the last option, and no further")
        #expect(speed.isAtMax)
        // Wrapping, 40 steps go round 8 options 5 times: one lost or doubled step shows.
        onFortyThreads { speed.increase(wrapping: true) }
        #expect(speed.wrappedValue == .quadruple)
        onFortyThreads { speed.decrease(wrapping: true) }
        #expect(speed.wrappedValue == .quadruple)
        onFortyThreads { speed.decrease() }
        #expect(speed.wrappedValue == .quarter)
        try suite.store.flush()
        #expect(try suite.flushedObject(forKey: "speed") as? String == "quarter", "nothing torn: a case's raw value")
    }

    @Test(
        .plistFilesOnly("`update` is atomic across processes only under the plist file's lock"), .tags(.childProcess),
        .startsProcesses) func stepsFromTwoProcessesAtOnceAreAllTaken() async throws
    {
        let suite = try TestSuite()
        let name = suite.name
        async let first = Probe.run("stepChoice", name, "101")
        async let second = Probe.run("stepChoice", name, "101")
        let (a, b) = try await (first, second)
        #expect(a.status == 0 && b.status == 0, "\(a.errors) \(b.errors)")
        // 202 steps round eight options: two past the first, unless a step was lost or doubled.
        #expect(suite.defaults.string(forKey: "stage") == "third")
    }

    // MARK: Declared options

    @Test func aValueOutsideTheListIsNeverStored() throws {
        let suite = try TestSuite()
        let quality = Setting(wrappedValue: 720, "quality", options: [240, 480, 720, 1080], store: suite.store)
        #expect(quality.options == [240, 480, 720, 1080])
        #expect(quality.min == 240 && quality.max == 1080)
        quality.wrappedValue = 1000
        #expect(quality.wrappedValue == 1080, "a number becomes the nearest option")
        #expect(try suite.flushedObject(forKey: "quality") as? Int == 1080, "and is stored as it")
        quality.wrappedValue = 600
        #expect(quality.wrappedValue == 480, "of two equally near, the lower")
        quality.wrappedValue = -5
        #expect(quality.wrappedValue == 240)
        quality.wrappedValue = .max
        #expect(quality.wrappedValue == 1080)
        UserDefault(wrappedValue: 0, "quality", store: suite.store).wrappedValue = 700
        #expect(quality.wrappedValue == 720, "another handle's write reads as the nearest option")
        #expect(try suite.flushedObject(forKey: "quality") as? Int == 700, "and is left as written")
        quality.increase()
        #expect(quality.wrappedValue == 1080)
        #expect(try suite.flushedObject(forKey: "quality") as? Int == 1080)

        let language = Setting(wrappedValue: "en", "language", options: ["en", "fr", "de"], store: suite.store)
        language.wrappedValue = "fr"
        try suite.store.flush()  // on disk before the other program writes, not after
        language.wrappedValue = "klingon"
        #expect(language.wrappedValue == "en", "anything else becomes the default")
        #expect(try suite.flushedObject(forKey: "language") as? String == "en")
    }

    @Test func extremeNumbersFindTheNearestOptionWithoutOverflow() {
        let wide = Setting(wrappedValue: 0, "wide", options: [Int.min, 0, Int.max], store: .inMemory())
        wide.wrappedValue = Int.max - 1
        #expect(wide.wrappedValue == Int.max)
        wide.wrappedValue = Int.min / 2 - 1
        #expect(wide.wrappedValue == Int.min)
        wide.wrappedValue = Int.min / 2
        #expect(wide.wrappedValue == Int.min, "equally near: the lower")
        let unsigned = Setting<UInt64>(wrappedValue: 0, "unsigned", options: [0, .max], store: .inMemory())
        unsigned.wrappedValue = .max / 2 + 1
        #expect(unsigned.wrappedValue == .max)
        let gain = Setting(wrappedValue: 0.5, "gain", options: [0, 0.5, 1, .nan], store: .inMemory())
        #expect(gain.options == [0, 0.5, 1], "NaN is never an option")
        gain.wrappedValue = .nan
        #expect(gain.wrappedValue == 0.5, "NaN is near no option: the default")
        gain.wrappedValue = .infinity
        #expect(gain.wrappedValue == 1)
        gain.wrappedValue = 0.8
        #expect(gain.wrappedValue == 1)
    }

    @Test func repeatedEmptyAndDefaultlessLists() {
        let repeated = Setting(wrappedValue: "b", "repeated", options: ["a", "b", "a", "c", "b"], store: .inMemory())
        #expect(repeated.options == ["a", "b", "c"], "listed once each, first place kept")
        #expect(walk(repeated, 2) == ["c", "c"])
        let empty = Setting(wrappedValue: "only", "empty", options: [], store: .inMemory())
        #expect(empty.options == ["only"], "an empty list allows only the default")
        empty.wrappedValue = "else"
        #expect(empty.wrappedValue == "only")
        let outside = Setting(wrappedValue: "zz", "outside", options: ["a", "b"], store: .inMemory())
        #expect(outside.wrappedValue == "a", "a default that is none of the options reads as the first")
        #expect(outside.defaultValue == "a")
        let number = Setting(wrappedValue: 700, "numberOutside", options: [480, 720], store: .inMemory())
        #expect(number.wrappedValue == 720, "a number default reads as its nearest option")
    }

    @Test(.plistFilesOnly("schemas are published beside the suite's plist file"))
    func anOptionThatCannotBeStoredIsListedWithoutAValue() throws {
        struct Gain: Codable, Equatable, DefaultsValueConvertible { var level: Double }
        struct Screen: SettingsCatalog { @Setting var gain: Gain }
        let suite = try TestSuite()
        // JSON has no infinity: that option cannot be stored.
        let screen = Screen(
            gain: Setting(
                wrappedValue: Gain(level: 1), "gain", options: [Gain(level: 1), Gain(level: .infinity)],
                store: suite.store))
        guard case .choice(let options) = try #require(screen.catalog.first).kind else {
            Issue.record("not a choice")
            return
        }
        #expect(options.map(\.value) == [.string(#"{"level":1}"#), nil])
        let (_, reported) = ReportedErrors.during { screen.$gain.increase() }
        #expect(reported.count == 1, "the write that cannot be stored is reported")
        #expect(try suite.store.storedValues()["gain"] == nil, "and nothing is stored")
        let file = try #require(try DefaultsSchema.publish(screen).first)
        defer { try? FileManager.default.removeItem(at: file) }
        #expect(try suite.store.publishedSchema()?["gain"]?.options?.count == 1, "the schema lists what can be written")
    }

    @Test(.plistFilesOnly("schemas are published beside the suite's plist file"))
    func anOptionalSettingTakesNilAsAnOption() throws {
        struct Screen: SettingsCatalog { @Setting var accent: String? }
        let suite = try TestSuite()
        let screen = Screen(
            accent: Setting(wrappedValue: nil, "accent", options: [nil, "red", "blue"], store: suite.store))
        #expect(walk(screen.$accent, 3) == ["red", "blue", "blue"])
        #expect(walk(screen.$accent, 2, upward: false) == ["red", nil])
        screen.accent = "green"
        #expect(screen.accent == nil, "none of the options: the default, nil")
        let file = try #require(try DefaultsSchema.publish(screen).first)
        defer { try? FileManager.default.removeItem(at: file) }
        let accent = try #require(try suite.store.publishedSchema()?["accent"])
        #expect(accent.options?.map(\.title) == ["nil", "red", "blue"])
        #expect(accent.problem(with: try DefaultsStoredValue(json: "null")) == nil, "an explicit nil is an option")
        #expect(accent.problem(with: .string("red")) == nil)
        #expect(accent.problem(with: .string("green"))?.contains("not one of the options") == true)
    }

    @Test func anEnumLimitedToSomeOfItsCases() {
        let palette = Setting(wrappedValue: Scheme.dark, "palette", options: [.dark, .light], store: .inMemory())
        #expect(palette.options == [.dark, .light], "declared order, not the enum's")
        palette.wrappedValue = .system
        #expect(palette.wrappedValue == .dark)
        palette.increase()
        #expect(palette.wrappedValue == .light)
        #expect(palette.isAtMax)
    }

    @Test func typedKeysTakeOptionsToo() {
        let store = DefaultsStore.inMemory()
        let key = DefaultsKey<Int>("typedQuality", default: 720, store: store)
        let quality = Setting(key, title: "Quality", options: [240, 480, 720, 1080], format: { "\($0)p" })
        store[key] = 300
        #expect(quality.wrappedValue == 240)
        #expect(store[key] == 300, "the key alone does not have the setting's rule")
        #expect(quality.formattedValue == "240p")
        let language = DefaultsKey<String>("typedLanguage", default: "en", store: store)
        let setting = Setting(language, options: ["en", "fr"])
        setting.increase()
        #expect(store[language] == "fr")
    }

    @Test func numbersWithoutOptionsWrapWhenAskedFor() {
        let count = Setting(wrappedValue: 9, "count", range: 0...10, step: 3, store: .inMemory())
        #expect(walk(count, 3, wrapping: true) == [10, 0, 3])
        #expect(walk(count, 3, upward: false, wrapping: true) == [0, 10, 9])
    }

    @Test(
        .plistFilesOnly("`UserDefaults` does not tell of other processes' writes (Apple's neither)"),
        .tags(.childProcess),
        .startsProcesses) func anOutOfListValueWrittenByAnotherProcessIsCorrectedOnRead()
        async throws
    {
        let suite = try TestSuite()
        let quality = Setting(wrappedValue: 720, "quality", options: [240, 480, 720, 1080], store: suite.store)
        let language = Setting(wrappedValue: "en", "language", options: ["en", "fr"], store: suite.store)
        #expect(quality.wrappedValue == 720)
        let changes = Collected<Int>()
        let observation = quality.property.observe { changes.append($0.newValue) }
        defer { observation.cancel() }

        #expect(try await Probe.run("plainSet", suite.name, "quality", "1000").status == 0)
        #expect(changes.wait(for: 1) == [1080], "observers see the corrected value")
        #expect(quality.wrappedValue == 1080)
        language.wrappedValue = "fr"
        try suite.store.flush()  // on disk before the other program writes, not after
        #expect(try await Probe.run("plainSet", suite.name, "language", "\"klingon\"").status == 0)
        #expect(await eventually { language.wrappedValue == "en" }, "anything else reads as the default")
        #expect(try suite.store.storedValues()["language"] == .string("klingon"))
        #expect(try suite.flushedObject(forKey: "quality") as? Int == 1000, "the other program's value stays stored")
        quality.decrease()
        #expect(try suite.flushedObject(forKey: "quality") as? Int == 720)
    }
}
