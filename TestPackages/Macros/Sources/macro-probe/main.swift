// Writes or reads AppSettings in a process of its own: `macro-probe write THEME COUNT` or
// `macro-probe read`, which prints "THEME COUNT VOLUME".
import Foundation
import TypedDefaults

let arguments = CommandLine.arguments.dropFirst()
switch arguments.first {
case "write" where arguments.count == 3:
    let settings = AppSettings()
    settings.theme = Theme(rawValue: arguments[arguments.startIndex + 1]) ?? .light
    settings.launchCount = Int(arguments[arguments.startIndex + 2]) ?? 0
    settings.volume = 0.25
case "read":
    let settings = AppSettings()
    print(settings.theme.rawValue, settings.launchCount, settings.volume)
default:
    FileHandle.standardError.write(Data("usage: macro-probe write THEME COUNT | read\n".utf8))
    exit(2)
}
