import Foundation
import TypedDefaults

// Repeats one read or write N times, for counting instructions under callgrind, which repeats
// on a noisy machine where timings do not. `Benchmarks/count-instructions.sh` runs every
// operation and subtracts the run that does nothing:
//
//     swift build --package-path Benchmarks -c release --product instruction-counts
//     bash Benchmarks/count-instructions.sh
//
// Usage: instruction-counts OPERATION N

struct Layout: Codable, Equatable, DefaultsValueConvertible {
    var width = 800
    var height = 600
    var sidebarVisible = true
    var title = "Main"
}

enum Theme: Int, DefaultsValueConvertible {
    case system, light, dark
}

extension DefaultsKeys {
    static let launchCount = DefaultsKey<Int>("launchCount", default: 0)
}

/// Settings declared as programs declare them.
final class Settings {
    @UserDefault var count: Int
    @UserDefault var nickname: String?
    @UserDefault var name: String
    @UserDefault var motto: String
    @UserDefault var layout: Layout
    @UserDefault var launchCount: Int
    @Setting var volume: Double
    @UserDefault var flag: Bool
    @UserDefault var lastOpened: Date
    @UserDefault var installation: UUID
    @UserDefault var theme: Theme
    @UserDefault var limit: Int?
    @UserDefault var homepage: URL

    init(store: DefaultsStore) {
        _count = UserDefault(wrappedValue: 0, "count", store: store)
        _nickname = UserDefault("nickname", store: store)
        _name = UserDefault(wrappedValue: "", "name", store: store)
        _motto = UserDefault(wrappedValue: "", "motto", store: store)
        _layout = UserDefault(wrappedValue: Layout(), "layout", store: store)
        _launchCount = UserDefault(.launchCount, store: store)
        _volume = Setting(wrappedValue: 0.5, "volume", title: "Volume", store: store)
        _flag = UserDefault(wrappedValue: false, "flag", store: store)
        _lastOpened = UserDefault(wrappedValue: Date(timeIntervalSince1970: 0), "lastOpened", store: store)
        _installation = UserDefault(wrappedValue: UUID(), "installation", store: store)
        _theme = UserDefault(wrappedValue: .system, "theme", store: store)
        _limit = UserDefault("limit", store: store)
        _homepage = UserDefault(wrappedValue: URL(fileURLWithPath: "/"), "homepage", store: store)
    }
}

struct SettingsValue {
    @UserDefault var count: Int
}

/// The store an operation runs on. A file store's coalesced flush is put off past the run, to
/// the flush at the end that every operation and the run that does nothing make: a flush due
/// every 100 ms fell inside the loop or not depending on how busy the machine was, and moved a
/// write's count by a hundred or more. The flush benchmarks measure flushes. Not inlined, so
/// the code of the loops below stays as the compiler had it.
@inline(never)
func makeStore(for operation: String) throws -> DefaultsStore {
    if operation.hasSuffix("in memory") { return DefaultsStore.inMemory() }
    let suiteName = "typeddefaults-benchmarks.instructions.\(getpid())"
    return try DefaultsStore(suiteName: suiteName, durability: .coalesced(within: .seconds(3600)))
}

let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.count == 2, let count = Int(arguments[1]) else {
    FileHandle.standardError.write(Data("usage: instruction-counts OPERATION N\n".utf8))
    exit(2)
}
let operation = arguments[0]
let store = try makeStore(for: operation)
let settings = Settings(store: store)
let settingsValue = SettingsValue(count: UserDefault(wrappedValue: 0, "count", store: store))
let wrapper = UserDefault(wrappedValue: 0, "count", store: store)
// Written and read once, so the reads below are the cached reads of a running program.
settings.count = 5
settings.name = "Bobbie Wasabi"
// Past 15 UTF-8 bytes a string has storage, counted on every copy (made at run time, as a
// decoded one is, not a literal's, which no count covers).
settings.motto = String(repeating: "Settings that stay. ", count: 2)
settings.layout = Layout(width: 1024)
settings.launchCount = 3
settings.volume = 0.7
settings.flag = true
settings.lastOpened = Date(timeIntervalSince1970: 1_700_000_000)
settings.installation = UUID()
settings.theme = .dark
settings.limit = 10
settings.homepage = URL(string: "https://example.com/start") ?? settings.homepage
_ = (settings.count, settings.name, settings.nickname, settings.layout, settings.launchCount, settings.volume)
_ = (settings.flag, settings.lastOpened, settings.installation, settings.theme, settings.limit, settings.homepage)
_ = (store[.launchCount], settingsValue.count, wrapper.wrappedValue, settings.motto)

var sink = 0
switch operation {
case "nothing", "nothing, in memory": break
case "read Int: class property": for _ in 0..<count { sink &+= settings.count }
case "read Int: struct property": for _ in 0..<count { sink &+= settingsValue.count }
case "read Int: store[.key]": for _ in 0..<count { sink &+= store[.launchCount] }
case "read Int: @UserDefault(.key)": for _ in 0..<count { sink &+= settings.launchCount }
case "read Double: Setting": for _ in 0..<count { sink &+= Int(truncatingIfNeeded: settings.volume.bitPattern) }
case "read Int: wrapper held (floor)": for _ in 0..<count { sink &+= wrapper.wrappedValue }
case "read Bool: class property": for _ in 0..<count { sink &+= settings.flag ? 1 : 0 }
case "read Date: class property":
    for _ in 0..<count {
        sink &+= Int(truncatingIfNeeded: settings.lastOpened.timeIntervalSinceReferenceDate.bitPattern)
    }
case "read UUID: class property": for _ in 0..<count { sink &+= Int(settings.installation.uuid.0) }
case "read enum: class property": for _ in 0..<count { sink &+= settings.theme.rawValue }
case "read Int?: class property": for _ in 0..<count { sink &+= settings.limit ?? 0 }
case "read URL: class property": for _ in 0..<count { sink &+= MemoryLayout.size(ofValue: settings.homepage) }
case "read String: class property": for _ in 0..<count { sink &+= settings.name.utf8.count }
case "read long String: class property": for _ in 0..<count { sink &+= settings.motto.utf8.count }
case "read missing String?: class property": for _ in 0..<count { sink &+= settings.nickname == nil ? 1 : 0 }
case "read Codable: class property": for _ in 0..<count { sink &+= settings.layout.width }
case "write Int: class property", "write Int: class property, in memory":
    for index in 0..<count { settings.count = index }
case "write Int: store[.key]": for index in 0..<count { store[.launchCount] = index }
case "write String: class property": for index in 0..<count { settings.name = index & 1 == 0 ? "Bobbie" : "Wasabi" }
case "write Codable: class property": for index in 0..<count { settings.layout = Layout(width: index) }
default:
    FileHandle.standardError.write(Data("instruction-counts: unknown operation \(operation)\n".utf8))
    exit(2)
}
print(sink)
if let file = store.fileURL {
    try? store.flush()
    let folder = file.deletingLastPathComponent()
    for name in (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
    where name.hasPrefix(file.lastPathComponent) {
        try? FileManager.default.removeItem(at: folder.appendingPathComponent(name))
    }
}
