import Foundation

/// A suite's property-list file: read, replaced atomically, locked across processes, and
/// preserved aside when it does not parse.
///
/// Only a file whose bytes were read and do not parse is corrupt. A file that cannot be read at
/// all (another user's, mode 000, a folder, no file descriptors left) is left exactly where and
/// as it is, and nothing is written over it until it can be read again.
///
/// `Values` is the contents as the file's user keeps them: the file parses its root dictionary
/// into them, writes them back, and remembers the last it read or wrote.
package struct PlistFile<Values: SuiteFileValues>: Sendable {
    package let url: URL
    /// What this process last read or wrote: see ``unchangedSinceSeen()``.
    let seen = Locked<Seen?>(nil)

    package init(url: URL) {
        self.url = url
    }

    /// The lock every writer of the suite takes: beside the file that is replaced, so that two
    /// suites that are links to one file (in two preferences folders) share one lock.
    package var lockURL: URL { Self.resolvingSymlinks(url).appendingPathExtension("lock") }

    /// What a read of the file found.
    package enum Contents {
        case values(Values)
        /// The bytes were read and do not parse; `underlying` says why.
        case unparsable(any Error)
        /// The file could not be read (permissions, an I/O error): not the same as corrupt.
        case unreadable(SuiteFileError)
    }

    /// The contents a load found, and a problem met on the way (a corrupt file moved aside, a
    /// file that could not be read) for the caller to report once it holds no lock.
    package struct Loaded {
        package var values: Values?
        package var problem: SuiteFileError?
        /// The contents could not be read at all: nothing is known, and a later read tries again.
        package var isUnreadable = false
    }

    /// How long to wait for a plain `UserDefaults` writer: see ``PlistFileWait``.
    package typealias Wait = PlistFileWait

    /// The contents, or empty when there is no file. A file that does not parse is moved aside
    /// (under the lock, waited for at most `limit`, after a fresh look, so a good file written
    /// meanwhile is never moved).
    package func load(waitingAtMost limit: TimeInterval) -> Loaded {
        switch settledRead() {
        case .values(let values):
            return Loaded(values: values)
        case .unreadable(let error):
            return Loaded(values: nil, problem: error, isUnreadable: true)
        case .unparsable:
            do {
                return try withExclusiveLock(waitingAtMost: limit, failing: { $0 }) { () throws(SuiteFileError) in
                    readMovingCorruptAside()
                }
            } catch {
                return Loaded(values: nil, problem: error, isUnreadable: true)
            }
        }
    }

    /// Reads the file, waiting out a writer halfway through it; a file that still does not
    /// parse is renamed to `<suite>.plist.corrupt-<timestamp>` and read as empty, with the
    /// problem to report. Call with the lock held.
    package func readMovingCorruptAside() -> Loaded {
        switch settledRead() {
        case .values(let values):
            return Loaded(values: values)
        case .unreadable(let error):
            return Loaded(values: nil, problem: error, isUnreadable: true)
        case .unparsable(let underlying):
            let aside = preserveAside()
            let problem = SuiteFileError.corruptFile(
                path: url.path, preservedAt: aside?.path, underlying: ParseFailure(underlying))
            // Not moved aside (a folder it cannot be renamed in): it is the only copy, so it is
            // read as a suite that cannot be read, and nothing is ever written over it.
            guard aside != nil else { return Loaded(values: nil, problem: problem, isUnreadable: true) }
            return Loaded(values: Values(fileEntries: [:]), problem: problem)
        }
    }

    /// Reads the file, waiting out a writer halfway through it, and throws when it cannot be
    /// read or does not parse, leaving it as it is.
    package func readLeavingCorrupt() throws(SuiteFileError) -> Loaded {
        switch settledRead() {
        case .values(let values):
            return Loaded(values: values)
        case .unreadable(let error):
            throw error
        case .unparsable(let underlying):
            throw .unparsableFile(path: url.path, underlying: ParseFailure(underlying))
        }
    }

    /// What tells one version of the file from another: a rename gives a new inode, a rewrite in
    /// place a new modification time or size.
    package struct Identity: Equatable, Sendable {
        package var inode: UInt64
        package var modified: timespec
        package var size: Int64

        package static func == (first: Identity, second: Identity) -> Bool {
            first.inode == second.inode && first.size == second.size
                && first.modified.tv_sec == second.modified.tv_sec && first.modified.tv_nsec == second.modified.tv_nsec
        }

        /// How long ago the file changed, on the wall clock (negative for a time ahead of it).
        package var age: TimeInterval {
            Date().timeIntervalSince1970 - (Double(modified.tv_sec) + Double(modified.tv_nsec) / 1e9)
        }

        /// Whether the file changed less than `seconds` ago. A time more than a second ahead of
        /// the clock (another machine's, or set by hand) is not a writer at work, and counts as
        /// long ago.
        package func changedLessThan(_ seconds: TimeInterval) -> Bool {
            let age = self.age
            return age > -1 && age < seconds
        }
    }

    /// The file's identity now (through a symlink, its target's), or `nil` when there is none.
    package func identity() -> Identity? {
        var status = stat()
        guard stat(url.path, &status) == 0 else { return nil }
        return Identity(inode: UInt64(status.st_ino), modified: status.modificationTime, size: Int64(status.st_size))
    }

    /// Reads the file, and reads it again over a short, bounded wait while it is empty or does
    /// not parse: a plain `UserDefaults` writer truncates the file before it writes, and a read
    /// between the two must not be taken for an empty suite. The wait ends ``Wait/settle``
    /// after the file last changed: a writer halfway through a file has just changed it. A file
    /// still empty or unparsable then counts as such only when it stayed the same file for the
    /// whole wait and was last changed ``Wait/atRest`` ago or more; until then it is
    /// `readFailed`, so nothing is written over it or moves it aside.
    package func settledRead() -> Contents {
        let first = readOnce()
        var wait = Wait.settle
        if let age = first.identity?.age {
            // The file's time is on the wall clock: how long ago it changed is taken once, and
            // the wait measured from now on the monotonic clock.
            wait = min(wait, max(0, Wait.settle - age))
        }
        let deadline = ContinuousClock.Instant.after(wait)
        var current = first
        while current.isUnsettled, ContinuousClock.now < deadline {
            usleep(10_000)
            current = readOnce()
        }
        if current.changedWhileRead {
            return .unreadable(.readFailed(path: url.path, underlying: StillBeingWritten()))
        }
        if current.isUnsettled, let identity = current.identity,
            (current.isEmptyFile && identity != first.identity) || identity.changedLessThan(Wait.atRest)
        {
            return .unreadable(.readFailed(path: url.path, underlying: StillBeingWritten()))
        }
        return current.contents
    }

    /// One read of the file: its contents, whether it is empty (or only whitespace), and the
    /// identity it had.
    private struct Read {
        var contents: Contents
        var isEmptyFile: Bool
        var identity: Identity?
        /// The file changed between the look at its identity and the end of the read.
        var changedWhileRead = false

        /// Empty or unparsable: perhaps a writer halfway through the file.
        var isUnsettled: Bool {
            switch contents {
            case .unreadable: false
            case .values: isEmptyFile
            case .unparsable: true
            }
        }
    }

    private func readOnce() -> Read {
        let identity = identity()
        let data: Data
        switch readBytes() {
        case .success(nil):
            forgetSeen()
            return Read(contents: .values(Values(fileEntries: [:])), isEmptyFile: false, identity: nil)
        case .success(let bytes?): data = bytes
        case .failure(let error): return Read(contents: .unreadable(error), isEmptyFile: false, identity: identity)
        }
        // Empty or torn bytes under the file's old, settled identity: a writer truncated it
        // between the look at it and the read. Whole bytes are whole, whoever wrote them.
        func changedWhileRead() -> Read? {
            let after = self.identity()
            guard after != identity else { return nil }
            return Read(
                contents: .unparsable(StillBeingWritten()), isEmptyFile: false, identity: after, changedWhileRead: true)
        }
        // Whatever this read finds, the file is not what this process remembered unless its
        // bytes parse as the same: a removal or an empty file forgets it.
        if data.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }) {
            // corelibs reads an empty or whitespace-only file as an empty suite.
            forgetSeen()
            return changedWhileRead()
                ?? Read(contents: .values(Values(fileEntries: [:])), isEmptyFile: true, identity: identity)
        }
        do throws(PropertyListFormatError) {
            let values = Values(fileEntries: try PropertyListReader.suiteEntries(from: data))
            rememberRead(data, holding: values)
            return Read(contents: .values(values), isEmptyFile: false, identity: identity)
        } catch {
            forgetSeen()
            return changedWhileRead() ?? Read(contents: .unparsable(error), isEmptyFile: false, identity: identity)
        }
    }

    /// The file's bytes, `nil` when there is no file; an I/O or permission error, or a path
    /// that holds no regular file or one too large (``FileBytes``), is reported as
    /// ``SuiteFileError/readFailed(path:underlying:)``, never as corrupt data.
    private func readBytes() -> Result<Data?, SuiteFileError> {
        FileBytes.contents(of: url.path).mapError { .readFailed(path: url.path, underlying: $0) }
    }

    /// Writes `contents` to a new temporary file beside the suite and renames it over the
    /// suite, so readers see the old file or the new one, never a mix, and a power cut leaves
    /// one of the two (``DurableFile``); when this returns, the new file is on the device. A
    /// suite file that is a symlink stays one: its target is replaced. No contents removes a
    /// plain file, as corelibs does. Call with the lock held: temporary files found then are
    /// left by a killed writer, and are removed.
    package func replace(with contents: Values) throws(SuiteFileError) {
        let target = Self.resolvingSymlinks(url)
        do {
            removeStaleTemporaries(beside: target)
            if contents.isEmpty, target == url {
                try DurableFile.remove(url)
                forgetSeen()
                return
            }
            let data = try BinaryPropertyList.data(entries: contents.fileEntries)
            // Never write a file no reader here would read back.
            guard data.count <= FileBytes.limit else { throw FileBytes.Refusal.tooLarge(size: data.count) }
            try DurableFile.replace(target, with: data, newFileMode: 0o600)
            rememberWrite(data, holding: contents)
        } catch {
            throw .writeFailed(path: url.path, underlying: error)
        }
    }

    /// Removes temporary files of this suite's that a writer killed mid-flush left behind. Only
    /// a writer holding the lock makes them, so with the lock held every one found is stale.
    /// Only names this suite's writers make count (`.<name>.<pid>[.<hex>].tmp`): another
    /// suite's name may start with this one's.
    private func removeStaleTemporaries(beside target: URL) {
        let folder = target.deletingLastPathComponent()
        let prefix = ".\(target.lastPathComponent)."
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        for name in names where name.hasPrefix(prefix) && name.hasSuffix(".tmp") {
            let middle = name.dropFirst(prefix.count).dropLast(".tmp".count).split(separator: ".")
            guard (1...2).contains(middle.count), middle[0].allSatisfy(\.isNumber),
                middle.dropFirst().allSatisfy({ $0.allSatisfy(\.isHexDigit) })
            else { continue }
            unlink(folder.appendingPathComponent(name).path)
        }
    }

    /// Where a symlink at `url` leads (links followed up to 16 deep), or `url` itself.
    package static func resolvingSymlinks(_ url: URL) -> URL {
        var current = url
        for _ in 0..<16 {
            guard let destination = try? FileManager.default.destinationOfSymbolicLink(atPath: current.path) else {
                return current
            }
            current =
                destination.hasPrefix("/")
                ? URL(fileURLWithPath: destination)
                : current.deletingLastPathComponent().appendingPathComponent(destination)
        }
        return current
    }

    /// Runs `body` holding an exclusive `flock` on the sidecar lock file, which no writer
    /// replaces, so every process that locks it agrees on one lock. Waits at most `limit`
    /// seconds for another holder (one that is stopped would otherwise block for ever), on the
    /// monotonic clock, then throws ``SuiteFileError/writeFailed(path:underlying:)`` as the
    /// caller's own error, which `failing` makes of it.
    package func withExclusiveLock<Result, Failure: Error>(
        waitingAtMost limit: TimeInterval, failing: (SuiteFileError) -> Failure, _ body: () throws(Failure) -> Result
    ) throws(Failure) -> Result {
        DurableFile.makeFolder(url.deletingLastPathComponent(), mode: 0o700)
        let descriptor = open(lockURL.path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else { throw failing(.writeFailed(path: lockURL.path, underlying: SystemError.current)) }
        defer { close(descriptor) }
        // flock has no timeout: tried, with a pause between tries, until the deadline.
        let deadline = ContinuousClock.Instant.after(limit)
        var pause: useconds_t = 1_000
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK || errno == EINTR else {
                throw failing(.writeFailed(path: lockURL.path, underlying: SystemError.current))
            }
            guard ContinuousClock.now < deadline else {
                throw failing(
                    .writeFailed(path: url.path, underlying: LockTimeout(lockPath: lockURL.path, seconds: limit)))
            }
            usleep(pause)
            pause = min(pause * 2, 50_000)
        }
        defer { flock(descriptor, LOCK_UN) }
        return try body()
    }

    /// Renames the file to `<name>.corrupt-<UTC timestamp>`; returns where it went.
    private func preserveAside() -> URL? {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd'T'HHmmss.SSS'Z'"
        let stamp = formatter.string(from: Date())
        for suffix in ["", "-1", "-2", "-3"] {
            let aside = URL(fileURLWithPath: "\(url.path).corrupt-\(stamp)\(suffix)")
            guard !FileManager.default.fileExists(atPath: aside.path) else { continue }
            return DurableFile.move(url, to: aside) ? aside : nil
        }
        return nil
    }
}

/// How long to wait for a plain `UserDefaults` writer, which truncates the file, then
/// writes it, to finish. How long to wait for the lock is the caller's to say.
package enum PlistFileWait {
    /// For an empty or unparsable file to become a whole one. A plain writer's `write` of a
    /// large suite stalled for more than 0.1 s on a loaded machine (its file read torn, or
    /// empty, for the whole of a 0.1 s wait, and a commit then dropped all 20,000 of its
    /// keys); 1 s covers that most of the time, and ``atRest`` keeps a longer stall from
    /// losing keys.
    package static let settle: TimeInterval = 1
    /// How long an empty or unparsable file must have been left as it is before it is taken
    /// for an empty suite or moved aside as corrupt. A plain writer that truncated the file
    /// and then stalled for longer than ``settle`` (a loaded machine) would otherwise lose
    /// every key to the next commit: until then the file reads as `readFailed`, and a
    /// commit fails and is tried again, without waiting any longer.
    package static let atRest: TimeInterval = 10
}

/// A suite file that was empty or did not parse over the settle wait, and is not yet at rest.
struct StillBeingWritten: Error, CustomStringConvertible {
    var description: String {
        "another program is writing it: it was empty or did not parse, and changed less than \(PlistFileWait.atRest.formatted()) s ago"
    }
}

/// Another process held a suite's lock for longer than the store waits.
struct LockTimeout: Error, CustomStringConvertible {
    let lockPath: String
    let seconds: TimeInterval

    var description: String {
        "another process has held \(lockPath) for more than \(seconds.formatted()) s (stopped, or stuck)"
    }
}

/// Why a suite file's bytes do not parse, in one line: the parser's own message without
/// Foundation's dump of its error's user info.
struct ParseFailure: Error, CustomStringConvertible {
    let description: String

    init(_ error: any Error) {
        let message: String
        if error is PropertyListFormatError {
            message = "\(error)"
        } else {
            let detail = ((error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String) ?? "\(error)"
            message = "not a property list: \(detail)"
        }
        description = message.split(whereSeparator: \.isNewline).joined(separator: " ")
    }
}

/// A failed system call's `errno`, described in one line (`Permission denied (errno 13)`).
package struct SystemError: Error, CustomStringConvertible {
    package let code: Int32

    package init(code: Int32) {
        self.code = code
    }

    /// The error `errno` names now.
    package static var current: SystemError { SystemError(code: errno) }

    package var description: String { "\(String(cString: strerror(code))) (errno \(code))" }
}
