import AlertCatalogs

/// The answer of a reload that swapped the catalogs: every catalog now served, with its alert
/// count and whether it changed, the catalogs that are gone, and the files' warnings.
public struct CatalogReloadSummary: Encodable, Sendable {
    public struct Catalog: Encodable, Sendable {
        public var name: String
        /// The catalog's file; absent for a built-in catalog.
        public var file: String?
        public var alerts: Int
        /// New, or read from files whose bytes differ from the last load.
        public var changed: Bool
    }

    public var catalogs: [Catalog]
    /// Catalogs served before and no longer.
    public var removed: [String]
    public var warnings: [CatalogIssue]

    init(old: ServedCatalogs, loaded: CatalogSource.Loaded) {
        catalogs = loaded.registry.catalogs.map { catalog in
            let file = catalog as? FileCatalog
            let changed = file != nil && old.sources[catalog.name]?.digest != loaded.sources[catalog.name]?.digest
            return Catalog(
                name: catalog.name, file: file?.file, alerts: catalog.entries.count, changed: changed || old.registry[catalog.name] == nil)
        }
        removed = old.registry.catalogs.map(\.name).filter { loaded.registry[$0] == nil }
        warnings = loaded.files.flatMap(\.warnings).map(CatalogIssue.init)
    }
}

/// A problem in a catalog file, as the API shows it: `file: entry: pointer: message`, the same
/// as `alertd validate` prints.
public struct CatalogIssue: Codable, Sendable, Equatable {
    public var file: String
    public var entry: String
    public var pointer: String
    public var code: String
    public var message: String

    public init(_ problem: CatalogProblem) {
        file = problem.file
        entry = problem.entry
        pointer = problem.pointer
        code = problem.code
        message = problem.message
    }
}

/// Why a reload kept the catalogs served before.
public struct CatalogReloadError: Error, Sendable, CustomStringConvertible {
    private enum Reason: Sendable {
        case noFolder
        case invalid(CatalogFileError)
    }

    private let reason: Reason

    static let noFolder = CatalogReloadError(reason: .noFolder)
    static func invalid(_ error: CatalogFileError) -> Self { .init(reason: .invalid(error)) }

    /// Every problem found in the files; empty when there is no folder to reload.
    public var problems: [CatalogProblem] {
        if case .invalid(let error) = reason { return error.problems }
        return []
    }

    public var description: String {
        switch reason {
        case .noFolder: "There is no catalog folder to reload: alertd serve was started without --catalogs."
        case .invalid(let error):
            "The catalog files have \(error.problems.count) problem\(error.problems.count == 1 ? "" : "s");"
                + " the catalogs served before are kept."
        }
    }

    /// The answer for `POST /v1/catalogs/reload`: 409 without a folder, 422 with every problem.
    var apiError: APIError {
        switch reason {
        case .noFolder: .noCatalogFolder(description)
        case .invalid(let error): .invalidCatalogs(description, errors: error.problems, warnings: error.warnings)
        }
    }
}
