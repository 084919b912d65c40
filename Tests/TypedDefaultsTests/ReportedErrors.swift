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

        func append(_ error: DefaultsError) {
            lock.withLock { errors.append(error) }
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

    /// Runs `body` and returns what it reported.
    static func during<Result>(_ body: () throws -> Result) rethrows -> (Result, [DefaultsError]) {
        _ = handlerInstalled
        let recorder = Recorder()
        let result = try $recorder.withValue(recorder) { try body() }
        return (result, recorder.all)
    }
}
