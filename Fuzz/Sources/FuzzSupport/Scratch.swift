import Foundation

@testable import TypedDefaults

/// A temporary preferences folder for the process, so the targets that open stores write
/// nowhere else; removed at exit. Each fuzzing process makes its own.
public enum Scratch {
    /// The folder; the first use points `XDG_CONFIG_HOME` at it and silences the library's
    /// reports of refused files (a fuzz run meets thousands).
    public static let folder: URL = {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("typeddefaults-fuzz-\(getpid())-\(UInt32.random(in: .min ... .max))")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        setenv("XDG_CONFIG_HOME", folder.path, 1)
        DefaultsError.handler = { _ in }
        atexit { try? FileManager.default.removeItem(at: Scratch.folder) }
        return folder
    }()

    /// A store on the suite `name` in the folder, committing every write at once, with no size
    /// limit: a few bytes of a binary property list can decode to a suite past it (its objects
    /// shared), and what is checked here is that any suite the reader accepts is kept exactly.
    public static func store(_ name: String) -> DefaultsStore {
        _ = folder
        do {
            return try DefaultsStore(suiteName: name, durability: .immediate).sizeLimit(.none)
        } catch {
            violated("the scratch suite \(name) cannot be opened", "\(error)")
        }
    }

    /// The bytes of a file, `nil` when there is none.
    public static func contents(_ file: URL) -> Data? {
        FileManager.default.fileExists(atPath: file.path) ? try? Data(contentsOf: file) : nil
    }

    /// Writes `data` as the whole file, replacing it by a rename as another program would, and
    /// dates it a minute back: a file at rest, which a store reads without waiting for a writer
    /// to finish it (a second for each read of a file that does not parse, past the 2 s an input
    /// may take).
    public static func write(_ data: Data, to file: URL) {
        do {
            try data.write(to: file, options: .atomic)
            let minuteAgo = Date(timeIntervalSinceNow: -60)
            try FileManager.default.setAttributes([.modificationDate: minuteAgo], ofItemAtPath: file.path)
        } catch {
            violated("the scratch file \(file.path) cannot be written", "\(error)")
        }
    }
}
