import Foundation
import TypedDefaults

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

    private static let handlerInstalled: Void = {
        DefaultsError.handler = { error in
            if let recorder = ReportedErrors.recorder {
                recorder.append(error)
            } else {
                DefaultsError.printToStandardError(error)
            }
        }
    }()

    /// Runs `body` and returns what it reported; the handler runs `reaction` after each report.
    static func during<Result>(
        reaction: @escaping @Sendable () -> Void = {}, _ body: () throws -> Result
    ) rethrows -> (Result, [DefaultsError]) {
        _ = handlerInstalled
        let recorder = Recorder(reaction: reaction)
        let result = try $recorder.withValue(recorder) { try body() }
        return (result, recorder.all)
    }
}
