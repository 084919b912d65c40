import Foundation

/// The changes a program's ``DefaultsBackend`` announces through its `observeChanges` handler,
/// taken in off the announcing thread.
///
/// A backend may call the handler at any moment, on any thread — from inside its own `load()`,
/// or right after its own `commit()`, while the engine's call into it still holds the suite's
/// locks on that very thread. Reloading there would wait on a lock the thread holds: for ever
/// (the suite's lock, held around a load), or until the flush lock's 5 s bound ran out (held
/// around a commit). So the handler only asks for a reload, which runs on another thread once
/// the engine's call has returned. Announcements that arrive while one is pending or running
/// are gathered into the next, so a burst costs one or two reloads.
///
/// An announcement from inside the engine's own `load()` of the same backend, on its thread,
/// is dropped: that load is reading the values now, and a reload after it would call `load()`
/// again, which would announce again, without end.
final class ChangeAnnouncements: Sendable {
    /// The registry keeps every backend's state for the life of the process.
    private unowned let state: SuiteState
    private let schedule = Locked<(requested: Bool, running: Bool)>((false, false))

    init(state: SuiteState) {
        self.state = state
    }

    /// The backend's handler: asks for a reload, never waits.
    func announce() {
        if BackendCall.loading == state.location { return }
        let start = schedule.withLock { schedule in
            schedule.requested = true
            guard !schedule.running else { return false }
            schedule.running = true
            return true
        }
        guard start else { return }
        DispatchQueue.global().async { self.reloadWhileRequested() }
    }

    private func reloadWhileRequested() {
        while schedule.withLock({ schedule in
            guard schedule.requested else {
                schedule.running = false
                return false
            }
            schedule.requested = false
            return true
        }) {
            state.reload(onlyIfChanged: true)
        }
    }
}

/// Which backend the engine is loading on this thread, if any (see ``ChangeAnnouncements``).
enum BackendCall {
    @TaskLocal static var loading: String?
}
