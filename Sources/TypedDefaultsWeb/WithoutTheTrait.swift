// Compiled without the Web trait, this library is empty; these names say why, where they are used.
#if !Web
    /// Needs the package's `Web` trait, which fetches what the page is built on.
    @available(
        *, unavailable,
        message: "SettingsPage needs the Web trait: .package(url: …, from: \"1.0.0\", traits: [\"Web\"])"
    )
    public enum SettingsPage {}

    /// Needs the package's `Web` trait, which fetches what the page is built on.
    @available(
        *, unavailable,
        message: "SettingsServer needs the Web trait: .package(url: …, from: \"1.0.0\", traits: [\"Web\"])"
    )
    public enum SettingsServer {}
#endif
