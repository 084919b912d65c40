import Foundation
import TypedDefaultsStorage

/// A test's own copy of every suite it touches, in memory: what the test-support library's
/// `.isolatedDefaults` trait gives each test. While a task runs with one as ``current``, every
/// store it reads or writes (`.standard`, a `static let` store, a store made before the test
/// began) reads and writes the copy instead, and nothing reaches the suite's own storage.
///
/// A read checks one switch, off until the first test isolates suites in the process; only
/// then does it look for the task's copies.
@usableFromInline package final class IsolatedSuites: Sendable {
    /// The copies of the task that runs: `nil` outside an isolated test.
    @TaskLocal package static var current: IsolatedSuites?

    /// Each suite's copy, made on first use; the suite's own state is held so that its
    /// identifier is not reused while the copy lives.
    private let copies = Locked<[ObjectIdentifier: Copy]>([:])

    private struct Copy: Sendable {
        let own: SuiteState
        let copy: SuiteState
    }

    /// The administrator's layer every copy has, as the isolation trait was given it.
    private let administration: DefaultsAdministration?

    /// Empty copies, made as the test touches suites, each managed by `administration` where
    /// given; from now on every read in the process checks for a task's copies.
    package init(administration: DefaultsAdministration? = nil) {
        self.administration = administration
        IsolationSwitch.turnOn()
    }

    /// The state a store of `own` uses in the running task: its copy in an isolated test, else
    /// the suite's own. Asked only of a suite that ``SuiteState/mayBeIsolated``.
    @usableFromInline
    static func state(for own: SuiteState) -> SuiteState {
        copy(standingFor: own) ?? own
    }

    /// The running test's copy of `own`, or `nil` outside an isolated test.
    static func copy(standingFor own: SuiteState) -> SuiteState? {
        current?.copy(of: own)
    }

    private func copy(of own: SuiteState) -> SuiteState {
        if let made = copies.withLock({ $0[ObjectIdentifier(own)]?.copy }) { return made }
        // Made with no lock held but the suite's own, briefly: the suite's callbacks are copied.
        let copy = SuiteRegistry.unlistedState(
            backend: MemoryBackend(), label: "\(own.location), a test's copy", isCopy: true,
            administration: administration.map { .given($0.layer) })
        copy.adoptCallbacks(of: own)
        return copies.withLock { copies in
            if let made = copies[ObjectIdentifier(own)] { return made.copy }
            copies[ObjectIdentifier(own)] = Copy(own: own, copy: copy)
            return copy
        }
    }
}

/// Which suites may be redirected to a test's copies: none in a program that runs no isolated
/// test. Every suite's state is marked when the first isolated test starts (a copy never is),
/// and every state made after: a marked state's reads leave the lock-free cache for the path
/// that looks for a test's copy, so that reads of a program that runs no test pay nothing.
enum IsolationSwitch {
    // Not weak references: a weakly referenced object counts its references the slow way, and
    // every read retains its suite's state. Each state leaves the list as it deinitializes.
    private struct Registered: @unchecked Sendable {  // only touched under `states`'s lock
        unowned(unsafe) let state: SuiteState
    }

    /// The states alive that were made before the switch was turned on; `nil` once it is on.
    // nonisolated(unsafe) is sound: only touched while holding `lock`.
    nonisolated(unsafe) private static var states: [ObjectIdentifier: Registered]? = [:]
    /// Recursive: turning the switch on holds each state while marking it, and a state whose
    /// last other reference went meanwhile deinitializes there, on the same thread, and leaves
    /// the list under the same lock. A state deinitializing on another thread waits for the
    /// switch, so none is freed while it is marked.
    private static let lock = NSRecursiveLock()

    /// Marks `state` if the switch is on, or keeps it to be marked when it is turned on.
    static func register(_ state: SuiteState) {
        lock.withLock {
            if states == nil { return state.markMayBeIsolated() }
            states?[ObjectIdentifier(state)] = Registered(state: state)
        }
    }

    /// Called as `state` deinitializes.
    static func unregister(_ state: SuiteState) {
        lock.withLock { _ = states?.removeValue(forKey: ObjectIdentifier(state)) }
    }

    static func turnOn() {
        lock.withLock {
            guard let registered = states else { return }
            for entry in registered.values { entry.state.markMayBeIsolated() }
            states = nil
        }
    }
}

/// The bindings made for a test's copy of a suite from the suite's own, one for each.
final class CopyBindings: Sendable {
    private let twins = Locked<[ObjectIdentifier: Twin]>([:])

    // @unchecked Sendable is sound: both are `KeyBinding`s, whose stored properties are `let`s,
    // created once and only handed out under the lock.
    private struct Twin: @unchecked Sendable {
        /// Held so that its identifier is not reused while the copy lives.
        let own: AnyObject
        let twin: AnyObject
    }

    /// The twin of `own`, made by `make` on first use.
    func twin<Value>(of own: KeyBinding<Value>, make: () -> KeyBinding<Value>) -> KeyBinding<Value> {
        twins.withLock { twins in
            if let made = twins[ObjectIdentifier(own)] { return unsafeDowncast(made.twin, to: KeyBinding<Value>.self) }
            let twin = make()
            twins[ObjectIdentifier(own)] = Twin(own: own, twin: twin)
            return twin
        }
    }
}

extension KeyBinding {
    /// This binding, where `state` is its own suite's; in a test's copy of the suite, its twin
    /// there, with the same key, default, rules and callbacks.
    func bound(to state: SuiteState) -> KeyBinding<Value> {
        guard state.serial != serial, let copyBindings = state.copyBindings else { return self }
        return copyBindings.twin(of: self) {
            let twin = KeyBinding(
                key: key, defaultSource: defaultSource, rules: rules, didSetHandlers: didSetHandlers, in: state,
                isTypedKey: declaresType)
            twin.bindDidSetHandlers(in: state, replacing: false)
            return twin
        }
    }
}

extension SuiteState {
    /// Binds in this copy every callback bound in `own`, in the order they were bound there:
    /// a handle's `didSet` and a model's observation tracking hear a change of the copy made
    /// through any handle, as they hear one of the suite.
    fileprivate func adoptCallbacks(of own: SuiteState) {
        let bound = own.lock.withLock {
            own.slots.flatMap { key, slot in
                slot.liveCallbacks().compactMap { callback in
                    callback.owner.map { (key: key, owner: $0, callback: callback) }
                }
            }
        }
        for (key, owner, callback) in bound.sorted(by: { $0.callback.order < $1.callback.order }) {
            let slot = lock.withLock { slotLocked(for: key) }
            bind(
                [(owner: owner, call: callback.call)], to: slot, replacing: false,
                tracksObservation: callback.tracksObservation)
        }
    }
}
