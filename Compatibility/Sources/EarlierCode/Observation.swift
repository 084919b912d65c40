import TypedDefaults

// Observation as earlier versions spelled it: a set of names, and an optional array whose nil
// meant every key.

func observeSome(of store: DefaultsStore, names: Set<String>) -> DefaultsObservation {
    store.observe(keys: names) { change in print(change.key) }
}

func observeEveryKey(of store: DefaultsStore) -> DefaultsObservation {
    store.observe(keys: nil, initial: true) { change in print(change.key) }
}

func follow(_ store: DefaultsStore, names: Set<String>) -> AsyncStream<DefaultsKeyChange> {
    store.changes(keys: names, initial: true)
}

func follow(_ store: DefaultsStore, names: [String]?) -> AsyncStream<DefaultsKeyChange> {
    store.changes(keys: names)
}
