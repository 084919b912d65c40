import Foundation
import Synchronization

/// What a child process writes to a pipe, read on a thread of its own until every writer has
/// closed it.
///
/// Not `FileHandle.readabilityHandler`: on Linux the dispatch read source behind that handler is
/// cancelled asynchronously, and a pipe closed before the cancel is done leaves libdispatch's
/// event loop holding a freed registration, which crashes the whole process. A blocking read
/// never registers the pipe with libdispatch.
final class PipeReader: Sendable {
    private let state = Mutex<(data: Data, ended: Bool)>((Data(), false))

    /// Starts reading `pipe`; `received` sees each chunk as it comes, on the reading thread.
    init(_ pipe: Pipe, received: @escaping @Sendable (Data) -> Void = { _ in }) {
        let handle = pipe.fileHandleForReading
        Thread.detachNewThread { [self] in
            var buffer = [UInt8](repeating: 0, count: 1 << 16)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(handle.fileDescriptor, $0.baseAddress, $0.count) }
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { break }
                let chunk = Data(buffer[..<count])
                self.state.withLock { $0.data.append(chunk) }
                received(chunk)
            }
            self.state.withLock { $0.ended = true }
        }
    }

    /// What was read so far.
    var text: String { state.withLock { String(decoding: $0.data, as: UTF8.self) } }

    /// Waits up to `seconds` for the pipe's end (call it once the child has ended); whether it came.
    @discardableResult
    func waitForEnd(seconds: Double = 5) async -> Bool {
        let deadline = ContinuousClock.now + .seconds(seconds)
        while !state.withLock({ $0.ended }) {
            if ContinuousClock.now > deadline { return false }
            try? await Task.sleep(for: .milliseconds(2))
        }
        return true
    }
}
