import Foundation

@testable import TypedDefaults
@testable import TypedDefaultsStorage

/// Collects the errors that `DefaultsError.handler` receives while a test body runs.
///
/// The handler is process-wide and tests run in parallel, so errors are routed through a task
/// local: each test sees only the errors raised by its own reads and writes.
enum ReportedErrors {
    final class Recorder: @unchecked Sendable {  // `errors` is only touched under `lock`.
        private let lock = NSLock()
        private var errors: [DefaultsError] = []
        /// Run by the handler after recording, as a user's handler might do more work.
        let reaction: @Sendable () -> Void

        init(reaction: @escaping @Sendable () -> Void) {
            self.reaction = reaction
        }

        func append(_ error: DefaultsError) {
            lock.withLock { errors.append(error) }
            reaction()
        }

        var all: [DefaultsError] { lock.withLock { errors } }
    }

    @TaskLocal static var recorder: Recorder?

    /// Recorders of errors reported on any thread (a flush on a background queue) that name a
    /// location of a test's own.
    private static let byLocation = Locked<[(location: String, recorder: Recorder)]>([])

    private static let handlerInstalled: Void = {
        DefaultsError.handler = { error in
            if let recorder = ReportedErrors.recorder {
                recorder.append(error)
            } else if let recorder = byLocation.withLock({ $0.first { "\(error)".contains($0.location) }?.recorder }) {
                recorder.append(error)
            } else {
                DefaultsError.printToStandardError(error)
            }
        }
    }()

    /// Records, until `body` returns, every error that names `location`, from any thread.
    static func naming<Result>(
        _ location: String, _ body: (Recorder) async throws -> Result
    ) async rethrows -> Result {
        _ = handlerInstalled
        let recorder = Recorder(reaction: {})
        byLocation.withLock { $0.append((location, recorder)) }
        defer { byLocation.withLock { $0.removeAll { $0.recorder === recorder } } }
        return try await body(recorder)
    }

    /// Runs `body` and returns what it reported; the handler runs `reaction` after each report.
    static func during<Result>(
        reaction: @escaping @Sendable () -> Void = {}, _ body: () throws -> Result
    ) rethrows -> (Result, [DefaultsError]) {
        _ = handlerInstalled
        let recorder = Recorder(reaction: reaction)
        let result = try $recorder.withValue(recorder) { try body() }
        return (result, recorder.all)
    }

    /// The same for an asynchronous body; its child tasks report to the same recorder.
    static func whileAwaiting<Result>(_ body: () async throws -> Result) async rethrows -> (Result, [DefaultsError]) {
        _ = handlerInstalled
        let recorder = Recorder(reaction: {})
        let result = try await $recorder.withValue(recorder) { try await body() }
        return (result, recorder.all)
    }
}
