import Foundation
import Testing
import TypedDefaults
import TypedDefaultsSchema

/// What a script sees of a failure: its class in the exit status (64 for a command line of the
/// wrong shape, 1 for anything else) and one line on standard error.
@Suite struct ExitStatusTests {
    /// Expects `result` to be a failure with `status`, one line on standard error holding
    /// `message`, and nothing on standard output.
    static func expectFailure(
        _ result: Tool.Result, status: Int32, _ message: String, _ arguments: [String],
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(result.status == status, "\(arguments): \(result.errors)", sourceLocation: sourceLocation)
        let lines = result.errors.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 2 && lines[1].isEmpty, "\(arguments): \(result.errors)", sourceLocation: sourceLocation)
        #expect(result.errors.hasPrefix("typed-defaults: "), "\(arguments)", sourceLocation: sourceLocation)
        #expect(result.errors.contains(message), "\(arguments): \(result.errors)", sourceLocation: sourceLocation)
        #expect(result.output.isEmpty, "\(arguments): \(result.output)", sourceLocation: sourceLocation)
    }

    @Test func aCommandLineOfTheWrongShapeIsAUsageErrorInOneLine() async throws {
        let (suite, store) = try Tool.suite()
        #expect(try await Tool.run("write", suite, "kept", "--int", "1").status == 0)
        let usage: [([String], String, String)] = [
            (["frob"], "unknown command 'frob'", "typed-defaults --help"),
            (["--bogus"], "unknown option '--bogus'", "typed-defaults --help"),
            (["read", "--bogus"], "unknown option '--bogus'", "typed-defaults help read"),
            (["write"], "missing expected argument '<suite>'", "typed-defaults help write"),
            (["write", suite], "missing expected argument '<key>'", "typed-defaults help write"),
            (["write", suite, "k"], "write needs a value", "typed-defaults help write"),
            (["write", suite, "k", "a", "b"], "write takes one value (2 given)", "typed-defaults help write"),
            (
                ["write", suite, "k", "--dict", "a"], "--dict takes key value pairs: 1 word given",
                "typed-defaults help write"
            ),
            (["write", suite, "k", "--integer32", "1"], "unknown option '--integer32'", "typed-defaults help write"),
            (["write", suite, "k", "--int", "--float", "1"], "had already been set", "typed-defaults help write"),
            (
                ["write", suite, "k", "--array", "--dict", "a", "b"], "had already been set",
                "typed-defaults help write"
            ),
            (["read", suite, "k", "extra"], "unexpected argument 'extra'", "typed-defaults help read"),
            (
                ["export", suite, "-", "--format", "yaml"], "'yaml' is invalid for '--format <format>'",
                "typed-defaults help export"
            ),
            (["import"], "missing expected argument '<suite>'", "typed-defaults help import"),
            (["describe", suite], "missing expected argument '<key>'", "typed-defaults help describe"),
        ]
        for (arguments, message, help) in usage {
            let result = try await Tool.run(arguments)
            Self.expectFailure(result, status: 64, message, arguments)
            #expect(result.errors.hasSuffix("(see '\(help)')\n"), "\(result.errors)")
        }
        #expect(try store.storedValues() == ["kept": .integer(1)])
        // A value that starts with -- goes after --.
        #expect(try await Tool.run("write", suite, "flag", "--", "--integer32").status == 0)
        #expect(try store.storedValues()["flag"] == .string("--integer32"))
    }

    @Test func everyOtherFailureIsStatusOneInOneLine() async throws {
        let (suite, store) = try Tool.suite()
        #expect(try await Tool.run("write", suite, "kept", "--int", "1").status == 0)
        let (corrupt, _) = try Tool.suite()
        try Tool.writeAtRest(Data("<plist><dict><key>half".utf8), to: Tool.file(of: corrupt))
        let (published, publishedStore) = try Tool.suite()
        try DefaultsSchema.publish(ToolTestSettings(store: publishedStore))
        let failures: [([String], String)] = [
            // A value that does not parse.
            (["write", suite, "n", "--int", "1.5"], #""1.5" is not an integer"#),
            (["write", suite, "n", "--date", "-044-03-15"], "is not a date"),
            (["write", suite, "n", "--json", "{bad"], "not JSON"),
            (["write", suite, "n", "--dict", "a", "1", "a", "2"], "the key a appears twice"),
            // What the command names does not exist.
            (["read", "no-such-suite-\(UUID())"], "does not exist"),
            (["read", suite, "missing"], "the key missing does not exist"),
            (["read", "../escape"], "is not a suite name"),
            (["import", suite, "/nonexistent/file.json"], "cannot read /nonexistent/file.json"),
            // A suite that cannot be read.
            (["read", corrupt], "does not parse"),
            (["write", corrupt, "k", "v"], "does not parse"),
            // Refused by the schema.
            (["write", published, "fontSize", "100"], "100 is above the range 8 to 72"),
            (["write", published, "undeclared", "1"], "declares no key undeclared"),
            (["list-keys", suite], "no schema is published"),
        ]
        for (arguments, message) in failures {
            Self.expectFailure(try await Tool.run(arguments), status: 1, message, arguments)
        }
        let refusedImport = try await Tool.run("import", published, "-", input: Data(#"{"fontSize": 500}"#.utf8))
        Self.expectFailure(refusedImport, status: 1, "cannot import fontSize", ["import"])
        let badFile = try await Tool.run("import", suite, "-", input: Data("{".utf8))
        Self.expectFailure(badFile, status: 1, "does not parse as JSON", ["import"])
        #expect(try store.storedValues() == ["kept": .integer(1)])
    }

    @Test func successAndHelpAreStatusZeroWithNothingOnStandardError() async throws {
        let (suite, _) = try Tool.suite()
        let written = try await Tool.run("write", suite, "k", "1")
        #expect(written.status == 0 && written.errors.isEmpty && written.output.isEmpty, "\(written.errors)")
        for arguments in [["read", suite, "k"], ["write", "--help"], ["help", "write"], []] {
            let result = try await Tool.run(arguments)
            #expect(result.status == 0, "\(arguments): \(result.errors)")
            #expect(result.errors.isEmpty, "\(arguments): \(result.errors)")
            #expect(!result.output.isEmpty, "\(arguments)")
        }
        let help = try await Tool.run("--help")
        #expect(help.output.contains("64 (EX_USAGE)"))
    }
}
