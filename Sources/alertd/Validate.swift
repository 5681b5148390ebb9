import AlertCatalogs
import ArgumentParser
import Foundation

/// `alertd validate PATH...`: checks spec files, catalog files and folders of catalog files as
/// the server would, printing `file: entry: pointer: message` lines.
struct Validate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check spec files, catalog files and catalog folders.",
        discussion: """
            Each PATH is a spec file (JSON or YAML with a "kind", as POST /v1/specs/validate takes it), a catalog file (alertd's own format or a Critical Moments config) or a folder of catalog files.

            Prints one line per problem as `file: entry: pointer: message` (entry `-` for a spec file or the file as a whole), warnings prefixed `warning:`, then a summary. Exit status: 1 when there is an error, else 0.

            Example: alertd validate catalogs/ welcome.json
            """)

    @Argument(help: "Spec files, catalog files or folders of catalog files.")
    var paths: [String]

    func run() throws {
        let check = FileCheck.run(paths: paths, builtIn: try CatalogRegistry.builtInCatalogs())
        say(check.lines.joined(separator: "\n"))
        if !check.isValid { throw ExitCode(1) }
    }
}
