import Foundation
import TypedDefaults
import TypedDefaultsSchema

/// A program's backend whose commits take seconds (a slow disk, a far database): a suite kept
/// as the JSON form of its values in one file, each commit sleeping `delay` before it writes.
final class SlowFileBackend: DefaultsBackend, @unchecked Sendable {  // `commitStarted` is thread-safe
    let file: URL
    let delay: TimeInterval
    /// Signalled as each commit starts to sleep.
    let commitStarted = DispatchSemaphore(value: 0)
    private let lock = NSLock()

    init(file: URL, delay: TimeInterval) {
        self.file = file
        self.delay = delay
    }

    var location: String { file.path }

    func load() throws(DefaultsError) -> [DefaultsStoredKey: DefaultsStoredValue] {
        guard let data = FileManager.default.contents(atPath: file.path) else { return [:] }
        do throws(DefaultsStoredValue.FormatError) {
            guard case .dictionary(let values) = try DefaultsStoredValue(json: String(decoding: data, as: UTF8.self))
            else { return [:] }
            return values
        } catch {
            throw .readFailed(path: file.path, underlying: error)
        }
    }

    func commit(
        _ changes: [DefaultsStoredKey: DefaultsStoredValue?], before deadline: ContinuousClock.Instant,
        edit: (inout [DefaultsStoredKey: DefaultsStoredValue]) throws(DefaultsError) -> Void
    ) throws(DefaultsError) -> [DefaultsStoredKey: DefaultsStoredValue] {
        lock.lock()
        defer { lock.unlock() }
        var values = try load()
        for (key, value) in changes { values[key] = value }
        try edit(&values)
        commitStarted.signal()
        Thread.sleep(forTimeInterval: delay)
        do {
            try Data(DefaultsStoredValue.dictionary(values).json().utf8).write(to: file, options: .atomic)
        } catch {
            throw .writeFailed(path: file.path, underlying: error)
        }
        return values
    }

    func observeChanges(_ changed: @escaping @Sendable () -> Void) {}
}
