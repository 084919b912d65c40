import Foundation

extension FileHandle {
    /// Why ``readToEnd(within:)`` stopped short.
    enum InputFailure: Error {
        case unreadable(any Error)
        case tooLarge
    }

    /// Everything the file or pipe holds, read in pieces, so that one that never ends
    /// (`/dev/zero`, a pipe that keeps writing) stops once it passed `limit` bytes.
    func readToEnd(within limit: Int) throws(InputFailure) -> Data {
        var data = Data()
        while true {
            let chunk: Data?
            do {
                chunk = try read(upToCount: 1 << 16)
            } catch {
                throw .unreadable(error)
            }
            guard let chunk, !chunk.isEmpty else { return data }
            data += chunk
            guard data.count <= limit else { throw .tooLarge }
        }
    }
}
