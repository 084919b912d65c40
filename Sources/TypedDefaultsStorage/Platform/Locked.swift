/// A value guarded by a lock, shareable across threads: a ``PlainLock``.
///
/// Not `Synchronization.Mutex`, which needs macOS 15 / iOS 18 while the package supports
/// macOS 13 / iOS 16, and which ThreadSanitizer cannot see into on Linux.
// @unchecked Sendable is sound: `state` is private and only touched inside `withLock`, which holds
// `lock` for the whole access, and `State: Sendable` lets values move in and out across threads.
package final class Locked<State: Sendable>: @unchecked Sendable {
    private let lock = PlainLock()
    private var state: State

    package init(_ state: State) {
        self.state = state
    }

    package func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        try lock.withLock { try body(&state) }
    }

    /// The state, looked at under the lock and left as it is. What to read a closure with:
    /// through `withLock`'s `inout` a stored closure is converted to the caller's form and
    /// back, and the converted one is written back, so each read wrapped it in two more thunks
    /// and each later call ran through all of them, until a thread's stack ran out.
    package func read<Result>(_ body: (State) throws -> Result) rethrows -> Result {
        try lock.withLock { try body(state) }
    }
}
