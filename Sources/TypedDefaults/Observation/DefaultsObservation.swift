/// A running observation; cancelled by ``cancel()`` or when the last reference to it goes.
///
/// ```swift
/// var observation: DefaultsObservation? = $volume.observe { print($0.newValue) }
/// observation = nil   // no more callbacks, and nothing is left registered
/// ```
///
/// Keep it as long as you want callbacks. The callback is held by the store until then, so
/// capture `self` weakly in it if `self` holds the observation. An observation of an in-memory
/// store that is released hears nothing more.
public final class DefaultsObservation: Sendable {
    private let observers: SuiteObservers
    private let entry: SuiteObservers.Entry

    init(observers: SuiteObservers, entry: SuiteObservers.Entry) {
        self.observers = observers
        self.entry = entry
    }

    /// Stops the callbacks, including any change already queued, and releases the callback. If
    /// another thread cancels while a change is being delivered, that one change may still
    /// reach the callback. Safe to call more than once and from any thread.
    public func cancel() {
        observers.remove(entry)
    }

    deinit {
        cancel()
    }
}
