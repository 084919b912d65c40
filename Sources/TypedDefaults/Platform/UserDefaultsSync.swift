import Foundation

extension UserDefaults {
    /// Calls `handler` on each change this object announces: on Apple platforms, this process's
    /// changes through it, synchronously inside `set` (another process's are not announced).
    /// corelibs announces nothing; there a store rereads when asked to.
    func onAnnouncedChange(_ handler: @escaping @Sendable () -> Void) {
        #if canImport(Darwin)
            // The center keeps the observer, and so the handler, for the life of the process, as
            // long as the registry keeps the state it reloads: its token is never needed.
            _ = NotificationCenter.default.addObserver(
                forName: UserDefaults.didChangeNotification, object: self, queue: nil
            ) {
                _ in handler()
            }
        #endif
    }

    /// Writes what was set to the suite's file and drops the cached copy, so the next read
    /// sees other processes' writes: corelibs does either only in `synchronize()`. Apple's
    /// `UserDefaults` persists and keeps itself current by itself.
    func synchronizeWhereNeeded() {
        #if !canImport(Darwin)
            synchronize()
        #endif
    }
}
