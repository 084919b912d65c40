import Foundation

/// Tells a suite when its file may have been changed by another process.
///
/// On Linux one inotify instance per process watches each preferences folder (a folder, not
/// the file: a writer that renames a new file into place replaces the file's inode) and a thread
/// of its own reads the events. A watch ends with its folder (removed, or moved away): until a
/// folder is at the path again, the nearest existing folder above it is watched instead, and
/// once the folder has its own watch again its suites look, for a file written meanwhile. Where
/// no watch can be added (no inotify, its limits, permissions), files are polled every second.
/// An event that tells of a finished file (renamed into place, as a commit puts it, closed after
/// a write, removed) runs its handler at once, and opens a 10 ms window: the events heard in it
/// are gathered into one more run as it closes, so a burst runs the handler at most once a
/// window after the first. A file made in place, whose writer has yet to write it, and a folder
/// found again wait out a window first.
///
/// A folder is heard at its path, whatever happens above it. A watch follows its inode, and
/// inotify tells nothing when an ancestor is moved away (`mv p q; mkdir -p p/cfg`) or a symlink
/// anywhere on the path is pointed elsewhere (`ln -sfn new cfg.tmp && mv -T cfg.tmp cfg`). So
/// once a second the reader's thread, whose wait for events ends then, compares the device and
/// inode `stat` gives for each watched folder's path (links followed, as a watch follows them)
/// with the watched folder's; for a missing folder, those of the ancestor waited on, and whether
/// the folder has appeared unannounced (a link's target made). On a difference the folder at
/// the path is watched and its suites look: such a change is heard within a second, a write
/// made meanwhile by the look. The check is one `stat` a folder a second, off the lock, and
/// wakes no other thread. (Watching every ancestor instead would wake the watcher for every
/// entry made or removed in `$HOME` or `/tmp`, would need each symlink's target resolved and
/// watched as well, and would still miss mounts.)
package enum FileWatcher {
    private struct Watched {
        let id: Int
        let fileName: String
        let handler: @Sendable () -> Void
        var phase = Phase.idle
    }

    /// Where a file is in gathering a burst of events.
    private enum Phase {
        /// No window open: the next event runs the handler, at once or as a window closes.
        case idle
        /// A window is open, and nothing was heard since the handler was last scheduled.
        case quiet
        /// A window is open, and an event was heard since: the handler runs as it closes.
        case pending
    }

    /// Which folder a path names: its device and inode, as `stat` of the path gives them.
    private struct Identity: Equatable {
        let device: UInt64
        let inode: UInt64
    }

    /// How a folder is watched now.
    private enum Mode: Equatable {
        /// By a watch of its own, whose events name its files, on the folder `identity`.
        case armed(Int32, Identity)
        /// It is missing: by a watch on the nearest existing folder above it, `above` (the folder
        /// `identity`), for `child`, the next folder on its path, to appear there.
        case waiting(Int32, Identity, above: String, child: String)
        /// Not at all, as no watch could be added: its files are polled, and a watch tried again.
        case polling
    }

    private struct Folder {
        var mode = Mode.polling
        var files: [Watched] = []
        /// Whether its polling timer runs.
        var isPolled = false
    }

    private struct State {
        var descriptor: Int32 = -1
        var folders: [String: Folder] = [:]  // folder path → how it is watched, and its files
        var watches: Set<Int32> = []  // watch descriptors added and not removed
        var nextID = 0
    }

    /// A handler to run, whether at once or as its window closes, and which file's phase to
    /// move on when its window closes.
    private struct Due {
        let folder: String
        let id: Int
        let handler: @Sendable () -> Void
        var atOnce = false
    }

    /// How long the events after a handler's run are gathered before it runs again.
    private static let window = DispatchTimeInterval.milliseconds(10)

    private static let state = Locked(State())
    private static let queue = DispatchQueue(label: "TypedDefaults.fileWatcher")

    /// Calls `handler` (on a background queue) after `file` may have changed. A suite's folder
    /// is made where it is missing (`makingFolder`); an administrator's is only waited for.
    package static func watch(_ file: URL, makingFolder: Bool = true, handler: @escaping @Sendable () -> Void) {
        #if os(Linux)
            if watchWithInotify(file, makingFolder: makingFolder, handler: handler) { return }
        #endif
        pollFile(handler)
    }

    /// The fallback: checking once a second (the handler skips unchanged files cheaply).
    private static func pollFile(_ handler: @escaping @Sendable () -> Void) {
        queue.asyncAfter(deadline: .now() + 1) {
            handler()
            pollFile(handler)
        }
    }

    #if os(Linux)
        /// One mask for every watch: adding a watch to a folder already watched (a folder that is
        /// also another's parent) returns its descriptor and replaces its mask.
        private static let mask = UInt32(
            IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_DELETE | IN_CREATE | IN_DELETE_SELF | IN_MOVE_SELF
                | IN_ONLYDIR)
        /// Events that end a watch, or leave it on a folder that is no longer at its path.
        private static let selfEvents = UInt32(IN_DELETE_SELF | IN_MOVE_SELF | IN_IGNORED | IN_UNMOUNT)
        /// Events after which a file named is whole, or gone: its reload need not wait.
        private static let finishedEvents = UInt32(IN_MOVED_TO | IN_CLOSE_WRITE | IN_MOVED_FROM | IN_DELETE)

        private static func watchWithInotify(
            _ file: URL, makingFolder: Bool, handler: @escaping @Sendable () -> Void
        ) -> Bool {
            let folder = file.deletingLastPathComponent()
            if makingFolder { DurableFile.makeFolder(folder, mode: 0o700) }
            return state.withLock { state in
                if state.descriptor < 0 {
                    let descriptor = inotify_init1(Int32(IN_CLOEXEC))
                    guard descriptor >= 0 else { return false }
                    state.descriptor = descriptor
                    Thread {
                        nameCurrentThread("TD.fileWatcher")
                        readEvents(descriptor)
                    }.start()
                }
                let watched = Watched(id: state.nextID, fileName: file.lastPathComponent, handler: handler)
                state.nextID += 1
                let isNew = state.folders[folder.path] == nil
                state.folders[folder.path, default: Folder()].files.append(watched)
                // The first look is the suite's first read; only a watch found again adds one.
                if isNew { _ = find(folder.path, in: &state) }
                return true
            }
        }

        /// Watches the folder at `path` itself, else the nearest existing folder above it, else
        /// polls it. True when the folder has just got its own watch (again).
        private static func find(_ path: String, in state: inout State) -> Bool {
            guard let before = state.folders[path]?.mode else { return false }
            var mode = Mode.polling
            // Bounded: a folder made below the one just watched is looked for again, a few times.
            for _ in 0..<8 {
                guard let found = locate(path, in: &state) else { continue }
                mode = found
                break
            }
            state.folders[path]?.mode = mode
            releaseUnused(in: &state)
            if mode == .polling, state.folders[path]?.isPolled == false {
                state.folders[path]?.isPolled = true
                pollFolder(path)
            }
            guard case .armed = mode else { return false }
            return mode != before
        }

        /// One walk up from `path` to the first folder a watch can be added to; `nil` when the
        /// next folder on the path appeared there before its watch began (no event tells of it),
        /// or the folder at `candidate` changed while its watch was added.
        private static func locate(_ path: String, in state: inout State) -> Mode? {
            var candidate = path
            while true {
                let before = identity(of: candidate)
                let watch = inotify_add_watch(state.descriptor, candidate, mask)
                if watch >= 0 {
                    state.watches.insert(watch)
                    // The same folder before and after: the one watched (short of a rename there
                    // and back within microseconds).
                    guard let before, identity(of: candidate) == before else { return nil }
                    if candidate == path { return .armed(watch, before) }
                    let next = child(of: candidate, on: path)
                    return isFolder(candidate == "/" ? "/" + next : candidate + "/" + next)
                        ? nil : .waiting(watch, before, above: candidate, child: next)
                }
                // Missing (or a file): look above. Anything else (limits, permissions): poll.
                guard errno == ENOENT || errno == ENOTDIR, candidate != "/" else { return .polling }
                candidate = parent(of: candidate)
            }
        }

        /// Removes the watches no folder uses any more (one was waited on, or has moved away).
        private static func releaseUnused(in state: inout State) {
            var used = Set<Int32>()
            for folder in state.folders.values {
                switch folder.mode {
                case .armed(let watch, _), .waiting(let watch, _, _, _): used.insert(watch)
                case .polling: break
                }
            }
            for watch in state.watches.subtracting(used) { inotify_rm_watch(state.descriptor, watch) }
            state.watches.formIntersection(used)
        }

        /// Every second while a folder has no watch: its suites look, and a watch is tried
        /// again; once one is added, they look a last time and the timer stops.
        private static func pollFolder(_ path: String) {
            queue.asyncAfter(deadline: .now() + 1) {
                let handlers: [@Sendable () -> Void] = state.withLock { state in
                    guard let folder = state.folders[path] else { return [] }
                    _ = find(path, in: &state)
                    if state.folders[path]?.mode == .polling {
                        pollFolder(path)
                    } else {
                        state.folders[path]?.isPolled = false
                    }
                    return folder.files.map(\.handler)
                }
                handlers.forEach { $0() }
            }
        }

        /// Reads events for ever, on the watcher's own thread; once a second, events or not, checks
        /// that the watched folders are those at their paths. Waiting in `poll` with a timeout,
        /// the check costs no more than that `poll`'s return and its `stat`s: no timer, no other
        /// thread woken.
        private static func readEvents(_ descriptor: Int32) {
            let capacity = 64 * 1024
            let buffer = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 8)
            var nextCheck = DispatchTime.now() + 1
            while true {
                let now = DispatchTime.now()
                if now >= nextCheck {
                    checkPaths()
                    nextCheck = DispatchTime.now() + 1
                    continue
                }
                // Rounded up, so as not to wake just before the check is due and spin.
                let wait = (nextCheck.uptimeNanoseconds - now.uptimeNanoseconds) / 1_000_000 + 1
                var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
                let ready = poll(&entry, 1, Int32(clamping: wait))
                guard ready > 0 else {
                    if ready == 0 || errno == EINTR { continue }
                    return
                }
                let count = read(descriptor, buffer, capacity)
                guard count > 0 else {
                    if count < 0 && errno == EINTR { continue }
                    return
                }
                var offset = 0
                while offset + MemoryLayout<inotify_event>.size <= count {
                    let event = buffer.load(fromByteOffset: offset, as: inotify_event.self)
                    let nameStart = buffer + offset + MemoryLayout<inotify_event>.size
                    let name =
                        event.len > 0 ? String(cString: nameStart.assumingMemoryBound(to: CChar.self)) : ""
                    received(watch: event.wd, mask: event.mask, name: name)
                    offset += MemoryLayout<inotify_event>.size + Int(event.len)
                }
            }
        }

        /// Whether each watched folder is still the one at its path; for a missing one, whether
        /// the ancestor waited on still is, and whether the folder has appeared without a word to
        /// it (a symlink's target made). A folder that is not is found again at its path and its
        /// suites look (a write there may have gone unheard); a missing one is waited on again.
        /// The `stat`s run outside the lock: a slow file system delays the events this thread
        /// reads next, not a `watch` call (a store being made) or the handlers already due.
        private static func checkPaths() {
            let watched = state.withLock { state in state.folders.map { (path: $0.key, mode: $0.value.mode) } }
            let changed = watched.filter { path, mode in
                switch mode {
                case .armed(_, let folder): identity(of: path) != folder
                case .waiting(_, let ancestor, let above, _): identity(of: above) != ancestor || isFolder(path)
                case .polling: false
                }
            }
            guard !changed.isEmpty else { return }
            let due: [Due] = state.withLock { state in
                var due: [Due] = []
                // Only folders whose watch is still the one checked (an event may have moved it).
                for item in changed where state.folders[item.path]?.mode == item.mode {
                    // An armed folder's suites look whatever is found (their files at the path
                    // are others now); a waiting one's once its folder is armed.
                    let armedAgain = find(item.path, in: &state)
                    var wasArmed = false
                    if case .armed = item.mode { wasArmed = true }
                    if wasArmed || armedAgain { due += mark(item.path, in: &state) { _ in true } }
                }
                return due
            }
            schedule(due)
        }

        /// Schedules the handlers an event concerns, and finds again the folders it moved.
        private static func received(watch: Int32, mask: UInt32, name: String) {
            let due: [Due] = state.withLock { state in
                var due: [Due] = []
                if mask & UInt32(IN_Q_OVERFLOW) != 0 {
                    // Events were lost, perhaps a folder's end: every folder is found again
                    // (a watch that still holds is kept) and every suite looks.
                    for path in Array(state.folders.keys) {
                        _ = find(path, in: &state)
                        due += mark(path, in: &state) { _ in true }
                    }
                    return due
                }
                let endsWatch = mask & selfEvents != 0
                // A watch on a folder moved away would follow it: it is removed, so a folder
                // moved back gets a new one.
                if endsWatch, state.watches.remove(watch) != nil { inotify_rm_watch(state.descriptor, watch) }
                for path in Array(state.folders.keys) {
                    switch state.folders[path]?.mode {
                    case .armed(watch, _)? where endsWatch:
                        // Its suites look now (their files are gone from the path) and again
                        // once it is back.
                        _ = find(path, in: &state)
                        due += mark(path, in: &state) { _ in true }
                    case .armed(watch, _)?:
                        // A file made in place (not by a rename) is still being written.
                        let isFinished = mask & finishedEvents != 0
                        due += mark(path, in: &state, atOnce: isFinished) { $0.fileName.utf8.elementsEqual(name.utf8) }
                    case .waiting(watch, _, _, let child)? where endsWatch || child.utf8.elementsEqual(name.utf8):
                        if find(path, in: &state) { due += mark(path, in: &state) { _ in true } }
                    default:
                        break
                    }
                }
                return due
            }
            schedule(due)
        }

        /// The files of the folder at `path` that `matches` and have no window open, now with
        /// one (their handlers run `atOnce`, or as it closes); those with one run as it closes.
        private static func mark(
            _ path: String, in state: inout State, atOnce: Bool = false, where matches: (Watched) -> Bool
        ) -> [Due] {
            guard var folder = state.folders[path] else { return [] }
            var due: [Due] = []
            for index in folder.files.indices where matches(folder.files[index]) {
                switch folder.files[index].phase {
                case .idle:
                    folder.files[index].phase = atOnce ? .quiet : .pending
                    let file = folder.files[index]
                    due.append(Due(folder: path, id: file.id, handler: file.handler, atOnce: atOnce))
                case .quiet:
                    folder.files[index].phase = .pending
                case .pending:
                    break
                }
            }
            state.folders[path] = folder
            return due
        }

        /// Runs the handlers due at once, and closes their windows ``window`` from now.
        private static func schedule(_ due: [Due]) {
            guard !due.isEmpty else { return }
            let now = due.filter(\.atOnce)
            if !now.isEmpty { queue.async { now.forEach { $0.handler() } } }
            closeWindows(of: due)
        }

        /// As ``window`` passes: the handlers of the files heard meanwhile run, and their window
        /// opens again (a burst that goes on runs each once a window); the others' ends.
        private static func closeWindows(of due: [Due]) {
            queue.asyncAfter(deadline: .now() + window) {
                let again: [Due] = state.withLock { state in
                    var again: [Due] = []
                    for item in due {
                        guard let index = state.folders[item.folder]?.files.firstIndex(where: { $0.id == item.id })
                        else { continue }
                        let pending = state.folders[item.folder]?.files[index].phase == .pending
                        state.folders[item.folder]?.files[index].phase = pending ? .quiet : .idle
                        if pending { again.append(item) }
                    }
                    return again
                }
                guard !again.isEmpty else { return }
                again.forEach { $0.handler() }
                closeWindows(of: again)
            }
        }

        /// The folder above `path`: "/" above "/a".
        private static func parent(of path: String) -> String {
            guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")), slash != path.utf8.startIndex else {
                return "/"
            }
            return String(decoding: path.utf8[..<slash], as: UTF8.self)
        }

        /// The name of the folder right below `ancestor` on `path`.
        private static func child(of ancestor: String, on path: String) -> String {
            let rest = path.utf8.dropFirst(ancestor == "/" ? 1 : ancestor.utf8.count + 1)
            return String(decoding: rest.prefix { $0 != UInt8(ascii: "/") }, as: UTF8.self)
        }

        private static func isFolder(_ path: String) -> Bool {
            var status = stat()
            return stat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFDIR
        }

        /// The folder at `path`, links followed; `nil` when there is none.
        private static func identity(of path: String) -> Identity? {
            var status = stat()
            guard stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFDIR else { return nil }
            return Identity(device: UInt64(status.st_dev), inode: UInt64(status.st_ino))
        }
    #endif
}
