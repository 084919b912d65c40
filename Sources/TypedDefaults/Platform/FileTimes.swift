import Foundation

extension stat {
    /// When the file's contents last changed: Darwin and Glibc name the field differently.
    var modificationTime: timespec {
        #if canImport(Darwin)
            st_mtimespec
        #else
            st_mtim
        #endif
    }
}
