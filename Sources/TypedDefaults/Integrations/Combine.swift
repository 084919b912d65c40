#if canImport(Combine)
    import Combine

    // Untested in this repository: it builds only where Combine exists (Apple platforms), and
    // CI runs on Linux. It relies on `observe(initial:_:)`, which the tests cover.

    extension UserDefault where Value: Sendable {
        /// The current value, then the value after every change, as a Combine publisher.
        ///
        /// ```swift
        /// cancellable = $volume.publisher.sink { print("volume:", $0) }
        /// ```
        public var publisher: AnyPublisher<Value, Never> {
            let property = self
            return Deferred {
                // A current-value subject keeps what the observation delivers before the
                // subscriber is attached (the first value comes from the suite's queue).
                let subject = CurrentValueSubject<Value?, Never>(nil)
                // Subjects are thread-safe; the observation delivers on the suite's serial queue.
                nonisolated(unsafe) let sending = subject
                let observation = property.observe(initial: true) { sending.send($0.newValue) }
                return subject.compactMap { $0 }.handleEvents(receiveCancel: { observation.cancel() })
            }
            .eraseToAnyPublisher()
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
