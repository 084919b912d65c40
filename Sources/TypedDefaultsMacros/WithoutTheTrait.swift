// Compiled without the Macros trait, this library declares no macro (one declared without its
// plugin is a warning); this name says why, where it is used.
#if !Macros
    /// Needs the package's `Macros` trait, which fetches swift-syntax to build the macro with.
    /// A global actor: of the names an attribute on a class can be, the one whose use the
    /// compiler reports as unavailable, with this message, rather than as the wrong kind of
    /// attribute.
    @available(
        *, unavailable,
        message: "@ObservableSettings needs the Macros trait: .package(url: …, from: \"1.0.0\", traits: [\"Macros\"])"
    )
    @globalActor public actor ObservableSettings {
        public static let shared = ObservableSettings()
    }
#endif
