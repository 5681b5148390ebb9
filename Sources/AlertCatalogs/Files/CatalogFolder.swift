import AlertSpec
import Foundation

/// A folder of catalog files (`--catalogs DIR`): every `*.json`, `*.yaml` and `*.yml` file in
/// it (not hidden, not in subfolders) is a catalog named after the file.
///
/// ```swift
/// let builtIn = try CatalogRegistry.builtInCatalogs()
/// let files = try CatalogFolder.load(URL(fileURLWithPath: "catalogs"), alongside: builtIn)
/// let registry = try CatalogRegistry(builtIn + files)
/// ```
public enum CatalogFolder {
    /// The catalog files of `folder`, sorted by name. Throws `CatalogFileError` when the folder
    /// cannot be listed.
    public static func files(in folder: URL) throws -> [URL] {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        } catch {
            throw CatalogFileError(problems: [
                CatalogProblem(file: folder.relativePath, code: "unreadable-folder", message: "The folder cannot be listed.")
            ])
        }
        return names.sorted()
            .map { folder.appendingPathComponent($0) }
            .filter { CatalogDocument.isCatalogFile($0) && !isFolder($0) }
    }

    /// Every catalog file of `folder`, checked one by one and then together: names unique and
    /// not taken by `others` (the built-in catalogs), every `next` action leading to an alert
    /// of `others` or of the files. Throws `CatalogFileError` with the problems of all files.
    public static func load(_ folder: URL, alongside others: [any AlertCatalog] = []) throws -> [FileCatalog] {
        try load(files: try files(in: folder), alongside: others)
    }

    /// The catalog files `urls`, checked as `load(_:alongside:)` checks a folder's.
    public static func load(files urls: [URL], alongside others: [any AlertCatalog] = []) throws -> [FileCatalog] {
        var catalogs: [FileCatalog] = []
        var failed: [String: String] = [:]
        var problems: [CatalogProblem] = []
        var warnings: [CatalogProblem] = []
        for url in urls {
            do {
                let catalog = try FileCatalog(contentsOf: url)
                catalogs.append(catalog)
                warnings += catalog.warnings
            } catch let error as CatalogFileError {
                failed[url.deletingPathExtension().lastPathComponent] = url.relativePath
                problems += error.problems
                warnings += error.warnings
            }
        }
        problems += check(catalogs, alongside: others, failed: Set(failed.keys))
        guard problems.isEmpty else { throw CatalogFileError(problems: problems, warnings: warnings) }
        return catalogs
    }

    /// What is wrong between catalogs: a name used twice or taken by `others`, a `next` action
    /// that leads nowhere. `failed` names catalogs that could not be loaded: actions leading
    /// into them are not reported again.
    static func check(_ catalogs: [FileCatalog], alongside others: [any AlertCatalog], failed: Set<String> = []) -> [CatalogProblem] {
        var problems: [CatalogProblem] = []
        for catalog in catalogs where reservedNames.contains(catalog.name) {
            problems.append(CatalogProblem(
                file: catalog.file, code: "reserved-catalog-name",
                message: "The catalog name \"\(catalog.name)\" is reserved: /v1/catalogs/\(catalog.name) is an action of the API."))
        }
        var seen: [String: String] = Dictionary(others.map { ($0.name, "") }, uniquingKeysWith: { first, _ in first })
        var unique: [any AlertCatalog] = others
        for catalog in catalogs {
            if let holder = seen[catalog.name] {
                let message = holder.isEmpty
                    ? "The catalog name \"\(catalog.name)\" is taken by a built-in catalog."
                    : "The catalog name \"\(catalog.name)\" is already used by \(holder)."
                problems.append(CatalogProblem(file: catalog.file, code: "duplicate-catalog", message: message))
                continue
            }
            seen[catalog.name] = catalog.file
            unique.append(catalog)
        }
        let validator = SpecValidator(directory: CatalogSet(unique, unchecked: failed))
        for catalog in catalogs where seen[catalog.name] == catalog.file {
            var list = ProblemList(file: catalog.file)
            for entry in catalog.entries {
                guard let template = catalog.templates[entry.type],
                    let draft = try? catalog.draft(type: entry.type, parameters: entry.example, locale: catalog.sourceLanguage)
                else { continue }
                list.add(validator.validate(draft).errors, entry: entry.type, map: template.pointers)
            }
            problems += list.problems
        }
        return problems
    }

    /// Names the HTTP API uses under `/v1/catalogs/` (`POST /v1/catalogs/reload`): no catalog's.
    public static let reservedNames: Set<String> = ["reload"]

    private static func isFolder(_ url: URL) -> Bool {
        var folder: ObjCBool = false
        return FileManager.default.fileExists(atPath: url.path, isDirectory: &folder) && folder.boolValue
    }
}

/// Catalogs as the directory `next` actions are checked against, before they are joined in a
/// `CatalogRegistry` (whose initializer refuses any broken reference, so cannot report them
/// one by one).
struct CatalogSet: AlertDirectory {
    private let byName: [String: any AlertCatalog]
    /// Names of catalogs that failed to load: what leads into them is not checked.
    private let unchecked: Set<String>

    init(_ catalogs: [any AlertCatalog], unchecked: Set<String> = []) {
        byName = Dictionary(catalogs.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        self.unchecked = unchecked
    }

    func problem(alert: String, parameters: [String: ParameterValue]) -> (code: String, message: String)? {
        if let id = AlertID(alert), byName[id.catalog] == nil, unchecked.contains(id.catalog) { return nil }
        return CatalogRegistry.problem(alert: alert, parameters: parameters, in: byName)
    }
}
