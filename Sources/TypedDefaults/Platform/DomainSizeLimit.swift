extension DefaultsSizeLimit {
    /// The limit stores have unless given another: ``tvOS`` on tvOS and watchOS, else ``iOS``,
    /// on Linux too, where a suite has no limit of its own.
    static var platformDefault: DefaultsSizeLimit {
        #if os(tvOS) || os(watchOS)
            .tvOS
        #else
            .iOS
        #endif
    }
}
