import Foundation

extension sigaction {
    /// Sets the plain handler (not `sa_sigaction`): Darwin and Glibc name the union differently.
    mutating func setHandler(_ handler: @escaping @convention(c) (Int32) -> Void) {
        #if canImport(Darwin)
            __sigaction_u.__sa_handler = handler
        #else
            __sigaction_handler.sa_handler = handler
        #endif
    }
}
