// Compiled without the Postgres trait, this library has no backend; the name says why, where it is used.
#if !Postgres
    /// Needs the package's `Postgres` trait, which fetches what the backend is built on.
    @available(
        *, unavailable,
        message: "PostgresBackend needs the Postgres trait: .package(url: …, from: \"1.0.0\", traits: [\"Postgres\"])"
    )
    public enum PostgresBackend {}
#endif
