#if canImport(Combine)
    import Combine
    import Foundation

    // Users get it where Combine exists (Apple platforms). CI compiles and tests it on Linux in
    // CombineIntegration/, a package that builds these sources with OpenCombine as Combine.

    extension UserDefault where Value: Sendable {
        /// The current value, then the value after every change, as a Combine publisher.
        ///
        /// ```swift
        /// cancellable = $volume.publisher.sink { print("volume:", $0) }
        /// ```
        ///
        /// Values are sent on the suite's serial queue, in the order the changes were made, one
        /// at a time; each subscription starts with the value current when it subscribes, and
        /// cancelling it ends its observation. A subscriber that asks for fewer values than
        /// come gets the latest value when it next asks, not every change it missed.
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
            let subscription = ChangeSubscription(AnySubscriber(subscriber))
            // Observed only once the subscriber holds the subscription, so no value can race
            // its arrival.
            subscriber.receive(subscription: subscription)
            subscription.start(
                property.observe(initial: true) { [weak subscription] change in subscription?.send(change.newValue) })
        }
    }

    /// One subscriber's observation. It calls the subscriber from one thread at a time and
    /// never under its lock, so a subscriber may request or cancel from inside `receive`.
    // @unchecked Sendable is sound: every stored `var` is only touched while holding `lock`; the
    // subscriber is called outside it, by the one thread that set `sending`.
    final class ChangeSubscription<Value: Sendable>: Subscription, @unchecked Sendable {
        private let lock = NSLock()
        private var downstream: AnySubscriber<Value, Never>?
        private var demand = Subscribers.Demand.none
        /// Values not sent yet: every one while the subscriber has asked for them, else only the
        /// latest.
        private var pending: [Value] = []
        private var sending = false
        private var observation: DefaultsObservation?

        init(_ downstream: AnySubscriber<Value, Never>) {
            self.downstream = downstream
        }

        /// Keeps `observation`, or ends it if the subscriber cancelled already.
        func start(_ observation: DefaultsObservation) {
            let cancelled = lock.withLock {
                if downstream != nil { self.observation = observation }
                return downstream == nil
            }
            if cancelled { observation.cancel() }
        }

        func send(_ value: Value) {
            lock.withLock {
                if demand == .none { pending.removeAll() }
                pending.append(value)
            }
            sendPending()
        }

        func request(_ more: Subscribers.Demand) {
            lock.withLock { demand += more }
            sendPending()
        }

        func cancel() {
            let observation = lock.withLock {
                defer { (downstream, pending, self.observation) = (nil, [], nil) }
                return self.observation
            }
            observation?.cancel()
        }

        /// Sends pending values while the subscriber asks for them, unless another thread is
        /// sending, which then sends them.
        private func sendPending() {
            while true {
                let next = lock.withLock { () -> (AnySubscriber<Value, Never>, Value)? in
                    guard !sending, demand > 0, let downstream, !pending.isEmpty else { return nil }
                    sending = true
                    demand -= 1
                    return (downstream, pending.removeFirst())
                }
                guard let (downstream, value) = next else { return }
                let more = downstream.receive(value)
                lock.withLock {
                    demand += more
                    sending = false
                }
            }
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

        /// The current value of a typed key, then its value after every change, as a Combine
        /// publisher. Kept here, not with the other deprecated spellings, because it exists only
        /// where Combine does.
        @available(*, deprecated, renamed: "publisher(_:)")
        public func publisher<Value>(for key: DefaultsKey<Value>) -> AnyPublisher<Value, Never> {
            publisher(key)
        }
    }
#endif
