import Foundation
import TypedDefaultsStorage

// A DefaultsError is open to new cases in 1.x (SE-0487's @nonexhaustive, which a library built
// without library evolution needs for it): toolchains that do not know the attribute would
// compile it frozen, and their clients' exhaustive switches would break on the next case.
#if !hasAttribute(nonexhaustive)
    #error("TypedDefaults needs Swift 6.2.3 or later, whose @nonexhaustive lets DefaultsError grow in 1.x")
#endif

/// An error reading or writing a stored value.
///
/// A plain read of `@UserDefault` never throws: when the stored data cannot be read it returns
/// the default and hands the error to ``DefaultsError/handler``. The stored data is left
/// untouched, so nothing is lost until your program writes the key again. Use
/// ``UserDefault/load()`` to receive the error instead.
///
/// ```swift
/// DefaultsError.handler = { error in logger.warning("\(error)") }
/// ```
///
/// A minor version may add a kind of failure, as Apple's SDKs add to their errors: a `switch`
/// that names every case ends with `@unknown default`, one that does not with `default`.
///
/// ```swift
/// switch error {
/// case .missingValue(let key): print("nothing stored for \(key)")
/// case .typeMismatch(let key, _, let found): print("\(key) holds \(found)")
/// default: print(error)
/// }
/// ```
@nonexhaustive
public enum DefaultsError: Error, CustomStringConvertible {
    /// Nothing is stored under the key (thrown by ``UserDefault/load()`` and
    /// ``DefaultsValue/init(from:forKey:)``; a plain read returns the default without
    /// reporting). Named as juliand665/UserDefault names it, so that its `catch` clauses compile.
    case missingValue(key: String)
    /// The stored object is of another type, or not a valid value of the expected type
    /// (an unknown enum raw value, an integer out of range, an unparsable URL).
    case typeMismatch(key: String, expected: String, found: String)
    /// The stored object has the right type but its contents cannot be decoded
    /// (malformed JSON, a damaged keyed archive), or a custom conversion threw.
    case corrupt(key: String, underlying: any Error)
    /// The value could not be converted for storage; nothing was written.
    case encodingFailed(key: String, underlying: any Error)
    /// A suite name that would escape the preferences folder or is otherwise unusable.
    case invalidSuiteName(String, reason: String)
    /// A suite's file was read and does not parse. It was renamed to `preservedAt` rather than
    /// overwritten, and the suite started empty. The file aside keeps every byte: look at it
    /// with `plutil -p` or Python's `plistlib`, recover what you need, then delete it; nothing
    /// reads it again. When it could not be renamed (`preservedAt` is `nil`), it stays where it
    /// is and the suite is read as one that cannot be read: defaults, changes kept, and nothing
    /// written over it.
    case corruptFile(path: String, preservedAt: String?, underlying: any Error)
    /// A file that does not parse, met by a call that repairs nothing (``DefaultsStore/storedValues()``,
    /// ``DefaultsStore/editStoredValues(_:)``, reading a published schema): it is left
    /// where and as it is, and nothing was written.
    case unparsableFile(path: String, underlying: any Error)
    /// A suite's file exists but could not be read: another user owns it, its mode forbids
    /// reading, it is a folder, or the process ran out of file descriptors. The file is left
    /// exactly as it is and nothing is written over it; reads give defaults, and the next read
    /// or flush tries again. Changes are kept until a flush succeeds.
    case readFailed(path: String, underlying: any Error)
    /// Changes could not be written to a suite's file or backend; they are kept, and a commit on
    /// schedule that fails is retried by itself until one succeeds (reported once per run of
    /// failures). A secret's write (`@Secret`, its `underlying` error a `KeyringError`) keeps
    /// nothing: the secret was not stored, and no copy of it is kept anywhere else.
    case writeFailed(path: String, underlying: any Error)
    /// An atomic update of a key (``UserDefault/update(_:)``) could not be committed: the lock
    /// was held past the wait, the file or backend could not be written, or the server stayed
    /// unreachable. The update was not stored, and the value is as it was; other changes are
    /// kept for the next flush.
    case updateFailed(key: String, path: String, underlying: any Error)
    /// Two ``DefaultsKey``s with one name and different value types were used in one suite.
    case keyTypeConflict(key: String, types: [String])
    /// A write would have taken the suite to `size` bytes, past the `limit` of its store's
    /// ``DefaultsSizeLimit`` (on iOS and macOS, the most a preferences domain keeps): nothing was
    /// written, and the value and the file are as they were. Keep large data in a file of its own
    /// beside the suite, and its name or a small summary in the setting.
    case sizeLimitExceeded(key: String, path: String, size: Int, limit: Int)
    /// A write took the suite to `size` bytes, past its store's warning mark
    /// (``DefaultsSizeLimit/warningBytes``), on its way to `limit`: it was written. Reported once
    /// each time the suite grows past the mark.
    case nearingSizeLimit(path: String, size: Int, limit: Int)
    /// A migration step threw: nothing it would have changed was written, the suite stays at
    /// the version before it (`version - 1`), and later steps did not run.
    case migrationFailed(version: Int, step: String, underlying: any Error)
    /// The key is locked by an administrator in the file `path`: the write, reset or edit was
    /// refused, and nothing of it was stored. See <doc:ManagedSettings>.
    case locked(key: String, path: String)
    /// The value is outside what an administrator allows for the key in the file `path`
    /// (`bounds`, in words): the write was refused, and nothing of it was stored.
    case outsideAdministratorBounds(key: String, path: String, bounds: String)
    /// An administrator's file for the suite could not be used: `problem` says why and what was
    /// done instead. The user's own file is never touched because of it.
    case administratorFileUnusable(path: String, problem: String)

    /// The key the error is about, if it is about one.
    public var key: String? {
        switch self {
        case .missingValue(let key), .typeMismatch(let key, _, _), .corrupt(let key, _),
            .encodingFailed(let key, _), .keyTypeConflict(let key, _), .updateFailed(let key, _, _),
            .sizeLimitExceeded(let key, _, _, _), .locked(let key, _), .outsideAdministratorBounds(let key, _, _):
            key
        case .invalidSuiteName, .corruptFile, .unparsableFile, .readFailed, .writeFailed, .migrationFailed,
            .nearingSizeLimit, .administratorFileUnusable:
            nil
        }
    }

    public var description: String {
        switch self {
        case .missingValue(let key):
            "no value is stored for key \"\(key)\""
        case .typeMismatch(let key, let expected, let found):
            "type mismatch for key \"\(key)\": expected \(expected), found \(found)"
        case .corrupt(let key, let underlying):
            "stored value for key \"\(key)\" cannot be decoded: \(underlying)"
        case .encodingFailed(let key, let underlying):
            "value for key \"\(key)\" cannot be encoded, nothing was written: \(underlying)"
        case .invalidSuiteName(let name, let reason):
            "invalid suite name \"\(name)\": \(reason)"
        case .corruptFile(let path, let preservedAt, let underlying):
            "\(path) does not parse (\(underlying)); "
                + (preservedAt.map { "it was moved to \($0), and the suite starts empty" }
                    ?? "it could not be moved aside, so it is left as it is and nothing is written over it")
        case .unparsableFile(let path, let underlying):
            "\(path) does not parse (\(underlying)); it is left as it is, and nothing was written"
        case .readFailed(let path, let underlying):
            "cannot read \(path): \(underlying); it is left as it is, defaults are read until it can be read"
        case .keyTypeConflict(let key, let types):
            "key \"\(key)\" is declared with different value types: \(types.joined(separator: " and "))"
        case .writeFailed(let path, let underlying as any WriteKeepsNothing):
            "cannot write \(path): \(underlying); the secret was not stored, and no copy of it is kept anywhere else"
        case .writeFailed(let path, let underlying):
            "cannot write \(path): \(underlying); the changes are kept for the next flush"
        case .updateFailed(let key, let path, let underlying):
            "cannot update \"\(key)\" in \(path): \(underlying); the update was not stored, other changes are kept for the next flush"
        case .sizeLimitExceeded(let key, let path, let size, let limit):
            "writing \"\(key)\" would make \(path) \(size) bytes, past its limit of \(limit); nothing was written "
                + "(keep large data in a file beside the suite)"
        case .nearingSizeLimit(let path, let size, let limit):
            "\(path) is \(size) bytes, nearing its limit of \(limit), past which writes are refused"
        case .migrationFailed(let version, let step, let underlying):
            "migration step \(version) (\(step)) failed, nothing of it was written: \(underlying)"
        case .locked(let key, let path):
            "\"\(key)\" is locked by your administrator in \(path); nothing was written"
        case .outsideAdministratorBounds(let key, let path, let bounds):
            "\"\(key)\" must be \(bounds), as your administrator set in \(path); nothing was written"
        case .administratorFileUnusable(let path, let problem):
            "administrator's file \(path): \(problem)"
        }
    }

    /// Wraps an error thrown while reading the key: a mismatch stays a mismatch, anything else
    /// means the contents are corrupt.
    static func reading(_ key: String, _ error: any Error) -> DefaultsError {
        switch error {
        case let error as DefaultsError: error
        case let mismatch as DefaultsTypeMismatch:
            .typeMismatch(key: key, expected: mismatch.expected, found: mismatch.foundWithPath)
        default: .corrupt(key: key, underlying: error)
        }
    }
}

/// The error of a store that keeps a value only once it confirmed it, or nowhere (the system's
/// keyring, for a secret): a write that failed with it left nothing pending for a flush.
package protocol WriteKeepsNothing: Error {}

extension DefaultsError {
    private static let currentHandler = Locked<@Sendable (DefaultsError) -> Void>(
        DefaultsError.printToStandardError)

    /// Receives every error that a plain read or write recovered from.
    ///
    /// The default prints one line to standard error. It is called on the thread that read or
    /// wrote the value, so keep it short and thread-safe.
    ///
    /// ```swift
    /// DefaultsError.handler = { error in
    ///     analytics.record("defaults", error.description)
    /// }
    /// ```
    public static var handler: @Sendable (DefaultsError) -> Void {
        get { currentHandler.read { $0 } }
        set { currentHandler.withLock { $0 = newValue } }
    }

    /// The default ``handler``: one line on standard error.
    public static let printToStandardError: @Sendable (DefaultsError) -> Void = { error in
        FileHandle.standardError.write(Data("TypedDefaults: \(error)\n".utf8))
    }

    /// Hands an error to the current handler.
    static func report(_ error: DefaultsError) {
        handler(error)
    }
}
