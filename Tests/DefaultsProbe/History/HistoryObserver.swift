import Foundation
import Synchronization
import TypedDefaults

/// The history's observer: observes every key other processes change, keeping the last value
/// each observation delivered. Once the stop file appears (every writer has ended) and no change
/// has come for a second, it logs `NANOS O KEY VALUE` for each key (`-` for none): what a
/// program that only observes the suite believes it holds. It logs `NANOS R` once it observes.
struct HistoryObserver {
    let store: DefaultsStore
    let log: HistoryLog

    func run(stopFile: String) {
        let seen = Mutex<(values: [String: String], last: ContinuousClock.Instant)>(([:], .now))
        var observations: [DefaultsObservation] = []
        for key in HistoryWorker.Keys.observed {
            let observation: DefaultsObservation
            if key.hasPrefix("c.") || key.hasPrefix("m.") {
                observation = store.observe(DefaultsKey<Int>(key, default: 0), initial: true) { change in
                    seen.withLock { $0 = ($0.values.merging([key: "\(change.newValue)"]) { $1 }, .now) }
                }
            } else {
                observation = store.observe(DefaultsKey<String?>(key, default: nil), initial: true) { change in
                    seen.withLock { $0 = ($0.values.merging([key: change.newValue ?? "-"]) { $1 }, .now) }
                }
            }
            observations.append(observation)
        }
        log.line("R")
        let deadline = ContinuousClock.now + .seconds(300)
        while !FileManager.default.fileExists(atPath: stopFile), ContinuousClock.now < deadline { usleep(20_000) }
        // Quiet for a second, or 20 s at most: what an observer was told has all arrived.
        let quietDeadline = ContinuousClock.now + .seconds(20)
        while ContinuousClock.now - seen.withLock({ $0.last }) < .seconds(1), ContinuousClock.now < quietDeadline {
            usleep(20_000)
        }
        let values = seen.withLock { $0.values }
        for key in HistoryWorker.Keys.observed { log.line("O \(key) \(values[key] ?? "-")") }
        withExtendedLifetime(observations) {}
    }
}
