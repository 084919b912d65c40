extension DefaultsSizeLimit {
    /// The limit of this platform's preferences domains: see ``DefaultsSizeLimit/standard``.
    static var platformDefault: DefaultsSizeLimit {
        #if os(tvOS) || os(watchOS)
            .tvOS
        #else
            .iOS
        #endif
    }
}
