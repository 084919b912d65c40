/// A running observation; cancelled by ``cancel()`` or when the last reference to it goes.
///
/// ```swift
/// var observation: DefaultsObservation? = $volume.observe { print($0.newValue) }
/// observation = nil   // no more callbacks, and nothing is left registered
/// ```
///
/// Keep it as long as you want callbacks. The callback is held by the store until then, so
/// capture `self` weakly in it if `self` holds the observation.
public final class DefaultsObservation: Sendable {
    private let observers: SuiteObservers
    private let entry: SuiteObservers.Entry

    init(observers: SuiteObservers, entry: SuiteObservers.Entry) {
        self.observers = observers
        self.entry = entry
    }

    /// Stops the callbacks, including any change already on its way. Safe to call more than
    /// once and from any thread.
    public func cancel() {
        observers.remove(entry)
    }

    deinit {
        cancel()
    }
}
