import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Tells a suite when its file may have been changed by another process.
///
/// On Linux one inotify instance per process watches each preferences folder (a folder, not
/// the file: a writer that renames a new file into place replaces the file's inode) and a thread
/// of its own reads the events. Where inotify is not available, each file is polled every
/// second instead. Bursts of events are gathered: the handler runs once, 10 ms after the first.
enum FileWatcher {
    private struct Watched {
        let fileName: String
        let handler: @Sendable () -> Void
        var scheduled = false
    }

    private struct State {
        var descriptor: Int32 = -1
        var folders: [String: Int32] = [:]  // folder path → watch descriptor
        var files: [Int32: [Watched]] = [:]  // watch descriptor → files in that folder
    }

    private static let state = Locked(State())
    private static let queue = DispatchQueue(label: "TypedDefaults.fileWatcher")

    /// Calls `handler` (on a background queue) after `file` may have changed.
    static func watch(_ file: URL, handler: @escaping @Sendable () -> Void) {
        #if os(Linux)
            if watchWithInotify(file, handler: handler) { return }
        #endif
        poll(handler)
    }

    /// The fallback: checking once a second (the handler skips unchanged files cheaply).
    private static func poll(_ handler: @escaping @Sendable () -> Void) {
        queue.asyncAfter(deadline: .now() + 1) {
            handler()
            poll(handler)
        }
    }

    #if os(Linux)
        private static func watchWithInotify(_ file: URL, handler: @escaping @Sendable () -> Void) -> Bool {
            let folder = file.deletingLastPathComponent()
            try? FileManager.default.createDirectory(
                at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            return state.withLock { state in
                if state.descriptor < 0 {
                    let descriptor = inotify_init1(Int32(IN_CLOEXEC))
                    guard descriptor >= 0 else { return false }
                    state.descriptor = descriptor
                    let reader = Thread { readEvents(descriptor) }
                    reader.name = "TypedDefaults.fileWatcher"
                    reader.start()
                }
                let watch: Int32
                if let existing = state.folders[folder.path] {
                    watch = existing
                } else {
                    let mask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_DELETE | IN_CREATE)
                    watch = inotify_add_watch(state.descriptor, folder.path, mask)
                    guard watch >= 0 else { return false }
                    state.folders[folder.path] = watch
                }
                state.files[watch, default: []].append(Watched(fileName: file.lastPathComponent, handler: handler))
                return true
            }
        }

        /// Reads events for ever, on the watcher's own thread.
        private static func readEvents(_ descriptor: Int32) {
            let capacity = 64 * 1024
            let buffer = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 8)
            while true {
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
                    changed(watch: event.wd, fileName: name)
                    offset += MemoryLayout<inotify_event>.size + Int(event.len)
                }
            }
        }

        /// Schedules the handlers of `fileName`, unless already scheduled.
        private static func changed(watch: Int32, fileName: String) {
            let due: [@Sendable () -> Void] = state.withLock { state in
                guard var files = state.files[watch] else { return [] }
                var due: [@Sendable () -> Void] = []
                for index in files.indices where files[index].fileName == fileName && !files[index].scheduled {
                    files[index].scheduled = true
                    due.append(files[index].handler)
                }
                state.files[watch] = files
                return due
            }
            guard !due.isEmpty else { return }
            queue.asyncAfter(deadline: .now() + .milliseconds(10)) {
                state.withLock { state in
                    guard var files = state.files[watch] else { return }
                    for index in files.indices where files[index].fileName == fileName {
                        files[index].scheduled = false
                    }
                    state.files[watch] = files
                }
                due.forEach { $0() }
            }
        }
    #endif
}
