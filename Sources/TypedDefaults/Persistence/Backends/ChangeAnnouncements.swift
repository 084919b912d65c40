import Foundation
import TypedDefaultsStorage

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
/// again, which would announce again, without end. A backend may still announce every load
/// from another thread: a reload that finds nothing changed makes the next wait longer (50 ms,
/// doubling to 5 s), and one that finds a change makes the next prompt, so such a backend
/// costs a few loads a second at first and one every 5 s after, not a core.
final class ChangeAnnouncements: Sendable {
    /// The backend's location, which names the engine's load of it (``BackendCall``).
    private let location: String
    /// Takes the changes in; returns whether there were any.
    private let heard: @Sendable () -> Bool
    private struct Schedule {
        var requested = false
        var running = false
        /// The wait before the next reload, after reloads that found nothing changed.
        var quiet: TimeInterval = 0
    }
    private let schedule = Locked(Schedule())
    static let firstQuietWait: TimeInterval = 0.05
    static let lastQuietWait: TimeInterval = 5

    init(location: String, heard: @escaping @Sendable () -> Bool) {
        self.location = location
        self.heard = heard
    }

    /// The backend's handler: asks for a reload, never waits.
    func announce() {
        if BackendCall.loading == location { return }
        let wait = schedule.withLock { schedule -> TimeInterval? in
            schedule.requested = true
            guard !schedule.running else { return nil }
            schedule.running = true
            return schedule.quiet
        }
        guard let wait else { return }
        DispatchQueue.global().asyncAfter(deadline: .now() + wait) { self.reloadWhileRequested() }
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
            let changed = heard()
            let wait = schedule.withLock { schedule -> TimeInterval? in
                schedule.quiet = changed ? 0 : min(max(schedule.quiet * 2, Self.firstQuietWait), Self.lastQuietWait)
                guard schedule.requested, schedule.quiet > 0 else { return nil }
                return schedule.quiet
            }
            // Asked again after a reload that found nothing: later, not now.
            if let wait {
                DispatchQueue.global().asyncAfter(deadline: .now() + wait) { self.reloadWhileRequested() }
                return
            }
        }
    }
}

/// Which backend the engine is loading on this thread, if any (see ``ChangeAnnouncements``).
enum BackendCall {
    @TaskLocal static var loading: String?
}
