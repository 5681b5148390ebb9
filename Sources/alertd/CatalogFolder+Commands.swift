import AlertCatalogs
import ArgumentParser
import Foundation

/// `--catalogs FOLDER`, else `ALERTD_CATALOGS`: the commands that read catalogs (`render`,
/// `catalog`, `validate`) see the same file catalogs as `serve`.
struct CatalogFolderOption: ParsableArguments {
    @Option(name: Setting.catalogs.optionName, help: "Folder of catalog files read beside the built-in catalogs (default: ALERTD_CATALOGS, else none).")
    var catalogs: String?

    /// The folder named by the option, else by `ALERTD_CATALOGS` when set and not empty.
    var folder: String? {
        if let catalogs { return catalogs }
        let environment = ProcessInfo.processInfo.environment[Setting.catalogs.environment] ?? ""
        return environment.isEmpty ? nil : environment
    }

    /// The built-in catalogs and those of `folder`; every problem a line on stderr, then exit
    /// status 2, as `serve` does.
    func registry(command: String) throws -> CatalogRegistry {
        try CatalogLoading.registry(folder: folder, command: command) { printError("\(command): warning: \($0)") }
    }
}

/// Loads the built-in catalogs and a folder of catalog files, for `serve` and the commands.
enum CatalogLoading {
    /// The registry, or every problem on stderr prefixed with `command`, and exit status 2.
    /// Warnings go to `warn`.
    static func registry(folder: String?, command: String, warn: (String) -> Void) throws -> CatalogRegistry {
        let builtIn = try CatalogRegistry.builtInCatalogs()
        var files: [FileCatalog] = []
        if let folder {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue else {
                printError("\(command): --catalogs: \(folder) is not a folder")
                throw ExitCode(2)
            }
            do {
                files = try CatalogFolder.load(URL(fileURLWithPath: folder), alongside: builtIn)
                for warning in files.flatMap(\.warnings) { warn("\(warning)") }
            } catch let error as CatalogFileError {
                for warning in error.warnings { printError("\(command): warning: \(warning)") }
                for problem in error.problems { printError("\(command): \(problem)") }
                throw ExitCode(2)
            }
        }
        do {
            return try CatalogRegistry(builtIn + files)
        } catch let error as CatalogError {
            printError("\(command): \(error)")
            throw ExitCode(2)
        }
    }
}
