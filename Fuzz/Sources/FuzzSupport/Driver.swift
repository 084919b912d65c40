import CFuzzDriver
import Foundation

/// Runs libFuzzer on `test` with the process's command line, and exits with its status. Each
/// target's `main` calls it: SwiftPM links an executable's `main` to the module's entry point,
/// so a target cannot leave `main` to libFuzzer.
public func runFuzzer(_ test: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt) -> Never {
    var argc = CommandLine.argc
    var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
    exit(LLVMFuzzerRunDriver(&argc, &argv, test))
}
