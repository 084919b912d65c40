extension DefaultsStore {
    /// Runs `body`, in which this task's changes run no `didSet` callbacks and no observation
    /// callbacks in this process: for keeping two copies of a setting in step (a view's state
    /// and a stored value, a server's setting and another system's) without each change coming
    /// back as a new one. Defaults' `Defaults.withoutPropagation` does the same.
    ///
    /// ```swift
    /// let observation = $theme.observe { change in
    ///     remote.send(change.newValue)
    /// }
    /// remote.onReceive { value in
    ///     DefaultsStore.withoutPropagation { theme = value }  // not sent back
    /// }
    /// ```
    ///
    /// The change is made as any other: it is stored, made durable as the store's durability
    /// says, and read back by every handle at once. What still hears of it: other processes and
    /// machines (through the file or the backend), changes made on other threads or tasks
    /// meanwhile (only the body's own are quiet, and those of tasks it starts), and the tracking
    /// of `@Observable` models and SwiftUI views, so what they show stays what is stored. The
    /// body runs synchronously, on the calling thread.
    public static func withoutPropagation<Result>(_ body: () throws -> Result) rethrows -> Result {
        try Propagation.$isSuppressed.withValue(true) { try body() }
    }
}

/// Whether this task's changes are being made without propagation.
enum Propagation {
    @TaskLocal static var isSuppressed = false
}
