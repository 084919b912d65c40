import ArgumentParser
import Foundation
import TypedDefaults
import TypedDefaultsToolSupport

/// The formats a suite is exported in.
enum ExportFormat: String, ExpressibleByArgument, CaseIterable {
    case xml, json
}

struct Export: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write a suite's stored values to a file.",
        discussion: """
            XML is a property list, as macOS defaults export writes; it holds dates to the whole \
            second (a warning names each date rounded), years 0001 to 9999, and no control \
            characters (refused). JSON keeps every value exactly, in the form read --json prints: \
            integers and floats apart, dates as {"$date": …}, data as {"$data": …}, an explicit nil \
            as null ("The JSON form" in the article "The command line and schemas"). Import \
            reads both back.

            The file is never replaced by something else: a regular file is replaced in one \
            step (a new file written beside it, with its permissions, renamed over it), a \
            symbolic link's target is written and the link kept (/dev/stdout writes standard \
            output), and a FIFO or a device is written into as it is, as the shell's > does (a \
            FIFO waits for its reader). A folder, or a file in a folder that does not exist, is \
            refused. A write that fails is one line, exit status 1, saying how much was written.

            Secrets the schema declares are not exported: each is named on standard error, with \
            whether the keyring holds it.

            Examples:
              typed-defaults export com.example.app backup.plist
              typed-defaults export com.example.app - --format json > backup.json
            """)

    @Argument(help: "The suite.") var suite: String
    @Argument(help: "The file, or - for standard output.") var file = "-"
    @Option(help: "xml or json.") var format = ExportFormat.xml

    func run() throws {
        let store = try Suites.existing(suite)
        let values = try SecretKeys.withheld(from: Suites.values(of: store), suite: suite, store: store, "not exported")
        let text: String
        switch format {
        case .json: text = ExportFile.json(values, pretty: true) + "\n"
        case .xml: text = try PlistXML.document(values) { Output.error("typed-defaults: warning: \($0)") }
        }
        if file == "-" {
            try OutputFile.writeToStandardOutput(Array(text.utf8))
        } else {
            try OutputFile.write(Array(text.utf8), to: file)
        }
    }
}
