// Compiled without the Configuration trait, this library is empty; these names say why, where they are used.
#if !Configuration
    /// Needs the package's `Configuration` trait, which fetches what the provider is built on.
    @available(
        *, unavailable,
        message:
            "DefaultsProvider needs the Configuration trait: .package(url: …, from: \"1.0.0\", traits: [\"Configuration\"])"
    )
    public enum DefaultsProvider {}
#endif
