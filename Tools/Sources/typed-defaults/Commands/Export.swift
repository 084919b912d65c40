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
        abstract: "Write a suite's stored values to a file.",
        discussion: """
            XML is a property list, as macOS defaults export writes; it holds dates to the whole \
            second (a warning names each date rounded), years 0001 to 9999, and no control \
            characters (refused). JSON keeps every value exactly, in the form read --json prints: \
            integers and floats apart, dates as {"$date": …}, data as {"$data": …}, an explicit nil \
            as null (the README's "The JSON form"). Import reads both back.

            Examples:
              typed-defaults export com.example.app backup.plist
              typed-defaults export com.example.app - --format json > backup.json
            """)

    @Argument(help: "The suite.") var suite: String
    @Argument(help: "The file, or - for standard output.") var file = "-"
    @Option(help: "xml or json.") var format = ExportFormat.xml

    func run() throws {
        let values = try Suites.values(of: try Suites.existing(suite))
        let text: String
        switch format {
        case .json: text = ExportFile.json(values, pretty: true) + "\n"
        case .xml: text = try PlistXML.document(values) { Output.error("typed-defaults: warning: \($0)") }
        }
        if file == "-" {
            FileHandle.standardOutput.write(Data(text.utf8))
            return
        }
        do {
            try Data(text.utf8).write(to: URL(fileURLWithPath: file), options: .atomic)
        } catch {
            throw ToolError("cannot write \(file): \(error.localizedDescription)")
        }
    }
}
