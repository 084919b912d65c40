#if canImport(Combine)
    import Combine
    import Foundation

    // Users get it where Combine exists (Apple platforms). CI compiles and tests it on Linux in
    // TestPackages/CombineIntegration/, a package that builds these sources with OpenCombine as Combine.

    extension UserDefault where Value: Sendable {
        /// The current value, then the value after every change, as a Combine publisher.
        ///
        /// ```swift
        /// cancellable = $volume.publisher.sink { print("volume:", $0) }
        /// ```
        ///
        /// Values are sent on the suite's serial queue, in the order the changes were made, one
        /// at a time; each subscription starts with the value current when it subscribes. A
        /// subscription lasts until it is cancelled (an `AnyCancellable` cancels as it is
        /// released), and cancelling ends its observation; if another thread cancels while a
        /// value is being sent, that one value may still arrive. A subscriber that asks for fewer
        /// values than come gets the latest value when it next asks, not every change it missed.
        public var publisher: AnyPublisher<Value, Never> {
            ChangePublisher(property: self).eraseToAnyPublisher()
        }
    }

    /// The publisher behind ``UserDefault/publisher``: each subscription observes on its own.
    struct ChangePublisher<Value: DefaultsValueConvertible & Sendable>: Publisher {
        typealias Output = Value
        typealias Failure = Never

        let property: UserDefault<Value>

        func receive<Downstream: Subscriber>(subscriber: Downstream)
        where Downstream.Input == Value, Downstream.Failure == Never {
            let subscription = ChangeSubscription(
                AnySubscriber(subscriber), queue: property.store.state.observers.queue)
            // Observed only once the subscriber holds the subscription, so no value can race
            // its arrival. The observation holds the subscription until it is cancelled, as a
            // subject holds its subscribers.
            subscriber.receive(subscription: subscription)
            subscription.start(property.observe(initial: true) { change in subscription.send(change.newValue) })
        }
    }

    /// One subscriber's observation. Every value is sent on the suite's serial queue, also one
    /// the subscriber asked for from another thread, so the subscriber is called by one thread
    /// at a time, and never under the lock: it may request or cancel from inside `receive`.
    // @unchecked Sendable is sound: every stored `var` is only touched while holding `lock`;
    // `queue` is a serial DispatchQueue, itself thread-safe.
    final class ChangeSubscription<Value: Sendable>: Subscription, @unchecked Sendable {
        private let lock = NSLock()
        private let queue: DispatchQueue
        private var downstream: AnySubscriber<Value, Never>?
        private var demand = Subscribers.Demand.none
        /// The latest value not sent, for want of demand.
        private var latest: Value?
        private var observation: DefaultsObservation?

        init(_ downstream: AnySubscriber<Value, Never>, queue: DispatchQueue) {
            self.downstream = downstream
            self.queue = queue
        }

        /// Keeps `observation`, or ends it if the subscriber cancelled already.
        func start(_ observation: DefaultsObservation) {
            let cancelled = lock.withLock {
                guard downstream != nil else { return true }
                self.observation = observation
                return false
            }
            if cancelled { observation.cancel() }
        }

        /// Called on the suite's queue with each value.
        func send(_ value: Value) {
            lock.withLock { latest = value }
            sendLatest()
        }

        func request(_ more: Subscribers.Demand) {
            lock.withLock { demand += more }
            queue.async { self.sendLatest() }
        }

        func cancel() {
            let observation = lock.withLock {
                (downstream, latest) = (nil, nil)
                return self.observation.take()
            }
            observation?.cancel()
        }

        /// Sends the latest value if the subscriber asked for one; on the suite's queue only.
        private func sendLatest() {
            let next = lock.withLock { () -> (AnySubscriber<Value, Never>, Value)? in
                guard demand > 0, let downstream, let value = latest else { return nil }
                latest = nil
                demand -= 1
                return (downstream, value)
            }
            guard let (downstream, value) = next else { return }
            let more = downstream.receive(value)
            lock.withLock { demand += more }
        }
    }

    extension DefaultsStore {
        /// The current value of a typed key, then its value after every change, as a Combine
        /// publisher.
        ///
        /// ```swift
        /// cancellable = store.publisher(.volume).sink { print("volume:", $0) }
        /// ```
        public func publisher<Value>(_ key: DefaultsKey<Value>) -> AnyPublisher<Value, Never> {
            UserDefault(key, store: self).publisher
        }
    }
#endif
