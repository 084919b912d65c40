import Foundation

extension stat {
    /// When the file's contents last changed: Darwin and Glibc name the field differently.
    package var modificationTime: timespec {
        #if canImport(Darwin)
            st_mtimespec
        #else
            st_mtim
        #endif
    }

    /// When the file's inode last changed (its contents, its name, its mode): a time no program
    /// can set, unlike the modification time.
    package var statusChangeTime: timespec {
        #if canImport(Darwin)
            st_ctimespec
        #else
            st_ctim
        #endif
    }
}
