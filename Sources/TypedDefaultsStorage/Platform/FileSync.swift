import Foundation

package enum FileSync {
    /// Flushes the drive's cache for `descriptor` where the system can, and says whether it
    /// did. On Apple platforms `fsync` leaves the data in the drive's cache and
    /// `fcntl(F_FULLFSYNC)` flushes it (SQLite's `fullfsync`); on Linux `fsync` already does,
    /// so there is nothing more to do, and the caller's `fsync` follows.
    package static func flushDriveCache(_ descriptor: Int32) -> Bool {
        #if canImport(Darwin)
            fcntl(descriptor, F_FULLFSYNC) == 0
        #else
            false
        #endif
    }
}
