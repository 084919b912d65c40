import Foundation

/// The freedesktop Secret Service, spoken over the session bus: what GNOME Keyring, KeePassXC
/// and KWallet answer. Each operation opens its own connection and session, ends by its
/// deadline, and never starts an unlock prompt: a locked keyring is reported as such.
struct SecretService: Keyring {
    static let busName = "org.freedesktop.secrets"
    static let servicePath = "/org/freedesktop/secrets"
    /// The `xdg:schema` attribute that marks this library's items, as libsecret's do.
    static let schema = "org.typeddefaults.Secret"

    /// How long one operation may take, connecting included.
    var timeout: Duration
    /// Where the session bus's address is read from.
    var environment: [String: String]

    /// The most a secret may hold: a reply carries it whole, and tokens and passwords are far
    /// smaller.
    static let maximumSecretLength = 1 << 20

    func secret(for item: KeyringItem) throws(KeyringError) -> Data? {
        try withSession { session throws(KeyringError) -> Data? in
            // An item another program removes between the search and the read is gone: searched
            // again, a few times at most.
            for _ in 0..<3 {
                let (unlocked, locked) = try session.search(item)
                guard let path = unlocked.first else {
                    guard locked.isEmpty else { throw .locked }
                    try session.confirmNoneStored()
                    return nil
                }
                guard
                    let reply = try session.callUnlessGone(
                        path, "org.freedesktop.Secret.Item", "GetSecret", [.objectPath(session.path)])
                else { continue }
                guard case .structure(let fields)? = reply.first, fields.count == 4, let value = fields[2].bytes else {
                    throw .malformedReply("GetSecret answered \(reply.map(\.signature))")
                }
                return Data(value)
            }
            return nil
        }
    }

    func setSecret(_ secret: Data, for item: KeyringItem) throws(KeyringError) {
        guard secret.count <= Self.maximumSecretLength else { throw .tooLarge(bytes: secret.count) }
        try withSession { session throws(KeyringError) in
            guard let collection = try session.defaultCollection() else {
                throw .serviceUnavailable("there is no default keyring to keep items in")
            }
            let properties = DBusValue.array(
                element: "{sv}",
                [
                    .dictEntry(.string("org.freedesktop.Secret.Item.Label"), .variant(.string(item.label))),
                    .dictEntry(.string("org.freedesktop.Secret.Item.Attributes"), .variant(Self.attributes(item))),
                ])
            let value = DBusValue.structure([
                .objectPath(session.path), .bytes([]), .bytes(secret), .string("text/plain; charset=utf8"),
            ])
            let reply = try session.call(
                collection, "org.freedesktop.Secret.Collection", "CreateItem", [properties, value, .boolean(true)])
            guard reply.count == 2, let created = reply[0].objectPath, let prompt = reply[1].objectPath else {
                throw .malformedReply("CreateItem")
            }
            try session.refusePrompt(prompt)
            guard created != "/" else { throw .malformedReply("CreateItem made no item") }
        }
    }

    func removeSecret(for item: KeyringItem) throws(KeyringError) {
        try withSession { session throws(KeyringError) in
            let (unlocked, locked) = try session.search(item)
            guard locked.isEmpty else { throw .locked }
            if unlocked.isEmpty { try session.confirmNoneStored() }
            for path in unlocked {
                // Gone: another program removed it first.
                guard let reply = try session.callUnlessGone(path, "org.freedesktop.Secret.Item", "Delete") else {
                    continue
                }
                guard let prompt = reply.first?.objectPath else { throw .malformedReply("Delete") }
                try session.refusePrompt(prompt)
            }
        }
    }

    func containsSecret(for item: KeyringItem) throws(KeyringError) -> Bool {
        try withSession { session throws(KeyringError) in
            let (unlocked, locked) = try session.search(item)
            guard unlocked.isEmpty && locked.isEmpty else { return true }
            try session.confirmNoneStored()
            return false
        }
    }

    /// The attributes an item is found by.
    static func attributes(_ item: KeyringItem) -> DBusValue {
        .stringDictionary(["xdg:schema": schema, "service": item.service, "account": item.account])
    }

    // MARK: Sessions

    /// A connection with a `plain` session open: the secret crosses the session bus's socket,
    /// which only this user can reach, unencrypted, as libsecret does where encryption is not
    /// negotiated.
    struct Session {
        let connection: DBusConnection
        let path: String

        func call(_ object: String, _ interface: String, _ member: String, _ body: [DBusValue] = [])
            throws(KeyringError) -> [DBusValue]
        {
            try SecretService.call(connection, object, interface, member, body)
        }

        /// ``call(_:_:_:_:)`` on an item, `nil` when the item is no longer there (removed since it
        /// was found).
        func callUnlessGone(_ object: String, _ interface: String, _ member: String, _ body: [DBusValue] = [])
            throws(KeyringError) -> [DBusValue]?
        {
            do {
                return try call(object, interface, member, body)
            } catch {
                // ``meaning(of:_:)`` keeps such an error as it came.
                if case .refused(let name, _) = error, SecretService.isGone(name) { return nil }
                throw error
            }
        }

        /// The paths of the items stored for `item`, unlocked and locked.
        func search(_ item: KeyringItem) throws(KeyringError) -> (unlocked: [String], locked: [String]) {
            let reply = try call(
                SecretService.servicePath, "org.freedesktop.Secret.Service", "SearchItems",
                [SecretService.attributes(item)])
            guard reply.count == 2, let unlocked = reply[0].objectPaths, let locked = reply[1].objectPaths else {
                throw .malformedReply("SearchItems")
            }
            return (unlocked, locked)
        }

        /// The collection items are stored in (the `default` alias), `nil` when there is none.
        func defaultCollection() throws(KeyringError) -> String? {
            let alias = try call(
                SecretService.servicePath, "org.freedesktop.Secret.Service", "ReadAlias", [.string("default")])
            guard let collection = alias.first?.objectPath else { throw .malformedReply("ReadAlias") }
            return collection == "/" ? nil : collection
        }

        /// Throws ``KeyringError/locked`` when a search that found nothing cannot tell that
        /// nothing is stored: the default collection, where items are stored, is locked. A
        /// locked collection need not list its items (GNOME Keyring lists none of a keyring not
        /// unlocked since the daemon started, as after a reboot before login unlocks it). With
        /// no default collection, nothing this library stored can be there: none is stored.
        /// Asks only, never to unlock.
        func confirmNoneStored() throws(KeyringError) {
            guard let collection = try defaultCollection(),
                let reply = try callUnlessGone(
                    collection, "org.freedesktop.DBus.Properties", "Get",
                    [.string("org.freedesktop.Secret.Collection"), .string("Locked")])
            else { return }
            guard case .variant(.boolean(let isLocked))? = reply.first else {
                throw .malformedReply("the collection's Locked is \(reply.map(\.signature))")
            }
            if isLocked { throw .locked }
        }

        /// A prompt the service asks for (to unlock a keyring) is dismissed, never shown: the
        /// call it belongs to failed because the keyring is locked.
        func refusePrompt(_ prompt: String) throws(KeyringError) {
            guard prompt != "/" else { return }
            _ = try? call(prompt, "org.freedesktop.Secret.Prompt", "Dismiss")
            throw .locked
        }
    }

    func withSession<Result>(_ body: (Session) throws(KeyringError) -> Result) throws(KeyringError) -> Result {
        let address = try DBusConnection.sessionBusAddress(environment: environment)
        // Longer than a day is a day: an instant that far ahead is still a number.
        let connection = try DBusConnection.open(address: address, deadline: .now + min(timeout, .seconds(86_400)))
        let opened = try Self.call(
            connection, Self.servicePath, "org.freedesktop.Secret.Service", "OpenSession",
            [.string("plain"), .variant(.string(""))])
        guard opened.count == 2, let path = opened[1].objectPath else { throw .malformedReply("OpenSession") }
        let session = Session(connection: connection, path: path)
        // Closed when done, as libsecret does; the service would close it with the connection.
        defer { _ = try? session.call(path, "org.freedesktop.Secret.Session", "Close") }
        return try body(session)
    }

    /// Calls `member` of the service's object at `object`; an error reply is thrown as what it
    /// means for the caller. The one place calls to the service are made.
    static func call(
        _ connection: DBusConnection, _ object: String, _ interface: String, _ member: String, _ body: [DBusValue]
    ) throws(KeyringError) -> [DBusValue] {
        do {
            return try connection.call(destination: busName, path: object, interface: interface, member: member, body)
        } catch .refused(let name, let message) {
            throw meaning(of: name, message)
        }
    }

    /// Whether an error reply says the object called is no longer there (removed meanwhile).
    static func isGone(_ name: String) -> Bool {
        [
            "org.freedesktop.DBus.Error.UnknownMethod", "org.freedesktop.DBus.Error.UnknownObject",
            "org.freedesktop.Secret.Error.NoSuchObject",
        ].contains(name)
    }

    /// What an error reply means for the caller.
    static func meaning(of name: String, _ message: String) -> KeyringError {
        switch name {
        case "org.freedesktop.DBus.Error.ServiceUnknown", "org.freedesktop.DBus.Error.NameHasNoOwner":
            .serviceUnavailable("no program answers for \(busName) on the session bus")
        case _ where name.hasPrefix("org.freedesktop.DBus.Error.Spawn"):
            .serviceUnavailable("the bus could not start the keyring daemon: \(message)")
        case "org.freedesktop.Secret.Error.IsLocked":
            .locked
        case "org.freedesktop.DBus.Error.NoReply", "org.freedesktop.DBus.Error.Timeout":
            .timedOut
        default:
            .refused(name, message)
        }
    }
}
