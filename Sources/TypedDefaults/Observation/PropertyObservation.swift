import Observation

/// Reports the reads and changes of one `@UserDefault` or `Setting` property of an
/// `Observable` object to observation tracking (`withObservationTracking`, SwiftUI), as the
/// object's own `@Observable` properties are reported.
///
/// Made on the first read of the property through its object, and kept by the property's
/// handle, so it lives as long as the object; the suite's slot holds it weakly. It holds
/// nothing of the object: once the object is gone, nothing is reported. It is its own
/// subject, so that no key path of the object has to be made on every read: tracking reports
/// `\PropertyObservation.value` as the key path that changed.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
final class PropertyObservation: Observable, Sendable {
    private let registrar = ObservationRegistrar()

    /// What tracking sees read and change.
    var value: Void { () }

    /// For a property of `object`, or `nil` when the object is not `Observable`.
    static func make(for object: AnyObject) -> PropertyObservation? {
        object is any Observable ? PropertyObservation() : nil
    }

    private init() {}

    /// Registers a read of the property.
    func recordAccess() {
        registrar.access(self, keyPath: \.value)
    }

    /// Tells the observers that the property changed.
    func recordChange() {
        registrar.willSet(self, keyPath: \.value)
        registrar.didSet(self, keyPath: \.value)
    }

    /// What a key's slot calls on a change: it holds the observation weakly, and the callback
    /// does not hold it.
    var callback: [(owner: AnyObject, call: (SlotChange) -> Void)] {
        [(owner: self, call: { [weak self] _ in self?.recordChange() })]
    }
}
