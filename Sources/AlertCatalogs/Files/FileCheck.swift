import AlertSpec
import Foundation

/// What `alertd validate PATH...` reports: every path a spec file (an object with a `kind`,
/// as `POST /v1/specs/validate` takes it), a catalog file, or a folder of catalog files.
/// Catalog files are checked one by one and then together with `builtIn` (names, `next`
/// actions); spec files against the built-in catalogs and the catalog files given.
///
/// ```swift
/// let check = FileCheck.run(paths: ["catalogs", "welcome.json"], builtIn: try CatalogRegistry.builtInCatalogs())
/// check.errors.forEach { print($0) }   // catalogs/promo.json: rate: /actionData/title: …
/// ```
public struct FileCheck: Sendable {
    public private(set) var errors: [CatalogProblem] = []
    public private(set) var warnings: [CatalogProblem] = []
    /// Files read (catalogs and specs).
    public private(set) var files = 0
    public private(set) var catalogs: [FileCatalog] = []

    public var isValid: Bool { errors.isEmpty }

    public static func run(paths: [String], builtIn: [any AlertCatalog]) -> FileCheck {
        var check = FileCheck()
        var failed: Set<String> = []
        let documents = check.read(paths, failed: &failed)

        // Catalogs first: spec files may lead into them.
        var specs: [(url: URL, root: JSONTree)] = []
        for document in documents {
            if !cameFromFolder(document.url, paths), document.root["kind"] != nil {
                specs.append(document)
                continue
            }
            do {
                let catalog = try FileCatalog(
                    url: document.url, root: document.root, problems: ProblemList(file: document.url.relativePath))
                check.catalogs.append(catalog)
                check.warnings += catalog.warnings
            } catch {
                check.record(error, file: document.url.relativePath)
                failed.insert(document.url.deletingPathExtension().lastPathComponent)
            }
        }
        check.errors += CatalogFolder.check(check.catalogs, alongside: builtIn, failed: failed)

        let validator = SpecValidator(directory: CatalogSet(builtIn + check.catalogs, unchecked: failed))
        for spec in specs {
            var problems = ProblemList(file: spec.url.relativePath)
            switch SpecReader.read(json: spec.root) {
            case .failure(let invalid):
                problems.add(invalid.issues, entry: CatalogProblem.none, map: PointerMap())
            case .success(let draft):
                let result = validator.validate(draft)
                problems.add(result.errors, warnings: result.warnings, entry: CatalogProblem.none, map: PointerMap())
            }
            check.errors += problems.problems
            check.warnings += problems.warnings
        }
        check.sortByFile(in: paths, documents.map(\.url.relativePath))
        return check
    }

    /// Every file named in `paths` or found in a folder named there, parsed. Files that cannot
    /// be read are errors; their names go to `failed`.
    private mutating func read(_ paths: [String], failed: inout Set<String>) -> [(url: URL, root: JSONTree)] {
        var documents: [(url: URL, root: JSONTree)] = []
        for path in paths {
            let url = URL(fileURLWithPath: path)
            var folder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &folder) else {
                errors.append(CatalogProblem(file: path, code: "no-such-file", message: "There is no such file or folder."))
                continue
            }
            var urls = [url]
            if folder.boolValue {
                do {
                    urls = try CatalogFolder.files(in: url)
                } catch {
                    record(error, file: path)
                    continue
                }
                if urls.isEmpty {
                    warnings.append(
                        CatalogProblem(file: path, code: "no-catalog-file", message: "The folder has no .json, .yaml or .yml file."))
                }
            } else if !CatalogDocument.extensions.contains(url.pathExtension.lowercased()) {
                errors.append(
                    CatalogProblem(file: path, code: "unknown-file-type", message: "Only .json, .yaml and .yml files can be checked."))
                continue
            }
            for url in urls {
                files += 1
                var problems = ProblemList(file: url.relativePath)
                guard let root = CatalogDocument.read(url, into: &problems) else {
                    errors += problems.problems
                    failed.insert(url.deletingPathExtension().lastPathComponent)
                    continue
                }
                documents.append((url, root))
            }
        }
        return documents
    }

    private mutating func record(_ error: any Error, file: String) {
        if let error = error as? CatalogFileError {
            errors += error.problems
            warnings += error.warnings
        } else {
            errors.append(CatalogProblem(file: file, code: "unreadable-file", message: "\(error)"))
        }
    }

    /// Each file's lines together, files in the order they were named or found.
    private mutating func sortByFile(in paths: [String], _ files: [String]) {
        var rank: [String: Int] = [:]
        for file in paths + files where rank[file] == nil { rank[file] = rank.count }
        func sorted(_ problems: [CatalogProblem]) -> [CatalogProblem] {
            problems.enumerated()
                .sorted { (rank[$0.element.file] ?? .max, $0.offset) < (rank[$1.element.file] ?? .max, $1.offset) }
                .map(\.element)
        }
        errors = sorted(errors)
        warnings = sorted(warnings)
    }

    /// Whether `url` was found in a folder named in `paths` (whose files are all catalogs)
    /// rather than named itself.
    private static func cameFromFolder(_ url: URL, _ paths: [String]) -> Bool {
        !paths.contains { URL(fileURLWithPath: $0).standardizedFileURL.path == url.standardizedFileURL.path }
    }

    /// One line per problem, warnings prefixed `warning: `, then a summary.
    public var lines: [String] {
        errors.map(\.description) + warnings.map { "warning: \($0)" } + [summary]
    }

    public var summary: String {
        func count(_ number: Int, _ noun: String) -> String { "\(number) \(noun)\(number == 1 ? "" : "s")" }
        return "\(count(files, "file")) checked: \(count(errors.count, "error")), \(count(warnings.count, "warning"))"
    }
}
