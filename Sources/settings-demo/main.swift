import Foundation
import TypedDefaults
import TypedDefaultsSchema

// swift run settings-demo [--name NAME] [--theme light|dark|system] [--next-theme] [--louder] [--quieter]
//                          [--open PATH] [--toggle-sidebar] [--reset]
// swift run settings-demo --watch
//
// Each run counts a launch and prints every setting; run it again to see them persisted.
// With --watch it keeps running and prints each change as it happens, made by any process.

let usage = """
    usage: settings-demo [--name NAME] [--theme light|dark|system] [--next-theme] [--louder] [--quieter]
                         [--open PATH] [--toggle-sidebar] [--reset] [--watch]
      --name NAME       set the user name (an empty NAME clears it)
      --theme THEME     set the theme
      --next-theme      switch to the next theme (after the last, the first)
      --louder          turn the volume up a step (10%)
      --quieter         turn the volume down a step
      --open PATH       add PATH to the recent files (five at most)
      --toggle-sidebar  show or hide the sidebar in the window layout
      --reset           remove every stored setting
      --watch           keep running, printing each change (Ctrl-C to stop)
    """

func exitWithUsage(_ problem: String) -> Never {
    FileHandle.standardError.write(Data("settings-demo: \(problem)\n\(usage)\n".utf8))
    exit(2)
}

let store: DefaultsStore
do {
    store = try DefaultsStore(suiteName: DemoSettings.suiteName)
} catch {
    exitWithUsage("\(error)")
}
let settings = DemoSettings(store: store)
// The settings' schema, beside the suite: `typed-defaults describe dev.typeddefaults.settings-demo volume`.
do {
    try DefaultsSchema.publish(settings)
} catch {
    FileHandle.standardError.write(Data("settings-demo: the schema was not published: \(error)\n".utf8))
}

/// One line on standard output, at once, even when it is a pipe.
func say(_ line: String) {
    FileHandle.standardOutput.write(Data("\(line)\n".utf8))
}

var watching = false
var arguments = CommandLine.arguments.dropFirst()[...]
while let option = arguments.popFirst() {
    switch option {
    case "--watch":
        watching = true
    case "--reset":
        settings.resetAll()
        print("All settings reset to their defaults.")
        exit(0)
    case "--name":
        guard let name = arguments.popFirst() else { exitWithUsage("--name needs a value") }
        settings.userName = name.isEmpty ? nil : name
    case "--theme":
        guard let value = arguments.popFirst(), let theme = Theme(rawValue: value) else {
            exitWithUsage("--theme needs one of \(settings.$theme.options.map(\.rawValue).joined(separator: ", "))")
        }
        settings.theme = theme
    case "--next-theme":
        settings.$theme.increase(wrapping: true)
    case "--louder":
        settings.$volume.increase()
    case "--quieter":
        settings.$volume.decrease()
    case "--open":
        guard let path = arguments.popFirst() else { exitWithUsage("--open needs a path") }
        let url = URL(fileURLWithPath: path).standardizedFileURL
        settings.recentFiles = Array(([url] + settings.recentFiles.filter { $0 != url }).prefix(5))
    case "--toggle-sidebar":
        settings.windowLayout.sidebarVisible.toggle()
    case "--help", "-h":
        print(usage)
        exit(0)
    default:
        exitWithUsage("unknown option \(option)")
    }
}

if watching {
    say("Watching suite \(DemoSettings.suiteName); change a setting from another terminal. Ctrl-C stops.")
    for entry in settings.listing { say("  \(entry.line)") }
    let keys = settings.listing.map(\.key)
    let observation = store.observe(keys: keys) { change in
        let source = change.origin == .otherProcess ? "another process" : "this process"
        for entry in settings.listing where entry.key == change.key {
            say("changed by \(source): \(entry.line)")
        }
    }
    withExtendedLifetime(observation) { dispatchMain() }
}

settings.$launchCount.increase()
print("TypedDefaults demo, suite \(DemoSettings.suiteName)")
for entry in settings.listing {
    print("  \(entry.line)")
}
