import Foundation

/// A value guarded by a lock, shareable across threads.
///
/// `NSLock` rather than `Synchronization.Mutex`, which needs macOS 15 / iOS 18 while the package
/// supports macOS 13 / iOS 16.
// @unchecked Sendable is sound: `state` is private and only touched inside `withLock`, which holds
// `lock` for the whole access, and `State: Sendable` lets values move in and out across threads.
final class Locked<State: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var state: State

    init(_ state: State) {
        self.state = state
    }

    func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&state)
    }
}
