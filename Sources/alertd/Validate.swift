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

            With --catalogs (or ALERTD_CATALOGS), that folder is checked too, and spec files may lead into its catalogs, as on a server started with it.

            Example: alertd validate catalogs/ welcome.json
            """)

    @Argument(help: "Spec files, catalog files or folders of catalog files.")
    var paths: [String] = []

    @OptionGroup var catalogFolder: CatalogFolderOption

    func validate() throws {
        if paths.isEmpty, catalogFolder.folder == nil { throw ValidationError("Give a file or folder to check, or --catalogs.") }
    }

    func run() throws {
        var checked = paths
        if let folder = catalogFolder.folder, !paths.contains(where: { Self.sameFile($0, folder) }) { checked.insert(folder, at: 0) }
        let check = FileCheck.run(paths: checked, builtIn: try CatalogRegistry.builtInCatalogs())
        say(check.lines.joined(separator: "\n"))
        if !check.isValid { throw ExitCode(1) }
    }

    /// Whether two paths name the same file or folder (`catalogs` and `./catalogs/`).
    private static func sameFile(_ a: String, _ b: String) -> Bool {
        URL(fileURLWithPath: a).standardizedFileURL.resolvingSymlinksInPath()
            == URL(fileURLWithPath: b).standardizedFileURL.resolvingSymlinksInPath()
    }
}
