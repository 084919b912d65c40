import Testing
import TypedDefaults

/// A test trait under which every store the test touches is a fresh, empty copy in memory, for
/// that test alone: `.standard`, a `static let` store, a settings model's store.
///
/// ```swift
/// @Suite(.isolatedDefaults) struct OnboardingTests {
///     @Test func firstLaunchShowsTheTour() {
///         #expect(AppSettings.shared.hasSeenTour == false)   // whatever the machine has stored
///     }
/// }
/// ```
///
/// Code under test reads and writes its stores unchanged, and tests run in parallel without
/// seeing each other's values; nothing is read from or written to a suite's file, a
/// `UserDefaults` object or a backend. The article "Testing code that uses settings", in the
/// `TypedDefaults` catalog, says what it covers and what it costs.
///
/// - **Per test.** On a suite, each test function (each case of a parameterized one) gets its
///   own copies, which end with it.
/// - **Handles made earlier.** A `@UserDefault` property, `Setting` or key made before the test
///   began reads and writes the test's copy while the test runs, and its own suite after.
/// - **The test's task and its child tasks.** A copy is found through a task-local value: a
///   `Task.detached`, a `Thread` or a Dispatch queue the test starts works on the suite itself.
public struct IsolatedDefaultsTrait: TestTrait, SuiteTrait, TestScoping {
    /// The administrator's defaults, locks and bounds every copy has, if given.
    let administration: DefaultsAdministration?

    init(administration: DefaultsAdministration? = nil) {
        self.administration = administration
    }

    /// Applied to every test in a suite it is given to, and in the suites nested in it.
    public var isRecursive: Bool { true }

    /// Around each test case: a suite's tests do not share copies.
    public func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? {
        testCase == nil ? nil : self
    }

    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        try await IsolatedSuites.$current.withValue(IsolatedSuites(administration: administration)) {
            try await function()
        }
    }
}

extension Trait where Self == IsolatedDefaultsTrait {
    /// Every store the test touches is a fresh, empty copy in memory, for that test alone.
    public static var isolatedDefaults: Self { Self() }

    /// Every store the test touches is a fresh copy in memory, for that test alone, managed by
    /// `administration`: its defaults, locks and bounds hold in every copy, as an administrator's
    /// files make them hold on a managed machine, with no file in `/etc`.
    ///
    /// ```swift
    /// @Test(.isolatedDefaults(administration: .telemetryLocked))
    /// func theToggleIsReadOnly() {
    ///     #expect(!AppSettings.shared.$telemetry.isWritable)
    /// }
    /// ```
    public static func isolatedDefaults(administration: DefaultsAdministration) -> Self {
        Self(administration: administration)
    }
}
