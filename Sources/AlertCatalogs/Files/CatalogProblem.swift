import AlertSpec

/// One problem found in a catalog or spec file, printed as `file: entry: pointer: message`.
///
/// `entry` is the alert type (or Critical Moments action name) concerned, `-` for the file as
/// a whole; `pointer` is a JSON pointer into that entry (`/actionData/title`), `/` for the whole
/// entry, `-` when the problem is not about the content (a file name, a clash of names).
public struct CatalogProblem: Sendable, Equatable, CustomStringConvertible {
    /// The file as it was named to the loader.
    public var file: String
    public var entry: String
    public var pointer: String
    /// A stable machine-readable code (`missing-text`, `invalid-file-name`, …).
    public var code: String
    public var message: String

    /// Stands for "no entry" and "no pointer".
    public static let none = "-"

    public init(file: String, entry: String = CatalogProblem.none, pointer: String = CatalogProblem.none, code: String, message: String) {
        self.file = file
        self.entry = entry
        self.pointer = pointer
        self.code = code
        self.message = message
    }

    public var description: String {
        "\(file): \(entry): \(pointer.isEmpty ? "/" : pointer): \(message)"
    }
}

/// Catalog files that cannot be served, with every problem found in them (and the warnings,
/// which alone would not have stopped them).
public struct CatalogFileError: Error, Sendable, Equatable, CustomStringConvertible {
    public var problems: [CatalogProblem]
    public var warnings: [CatalogProblem]

    public init(problems: [CatalogProblem], warnings: [CatalogProblem] = []) {
        self.problems = problems
        self.warnings = warnings
    }

    /// One line per problem.
    public var description: String { problems.map(\.description).joined(separator: "\n") }
}

/// Collects problems and warnings about one file while it is read.
struct ProblemList {
    let file: String
    private(set) var problems: [CatalogProblem] = []
    private(set) var warnings: [CatalogProblem] = []

    init(file: String) { self.file = file }

    mutating func error(_ entry: String, _ pointer: String, _ code: String, _ message: String) {
        problems.append(CatalogProblem(file: file, entry: entry, pointer: pointer, code: code, message: message))
    }

    mutating func warn(_ entry: String, _ pointer: String, _ code: String, _ message: String) {
        warnings.append(CatalogProblem(file: file, entry: entry, pointer: pointer, code: code, message: message))
    }

    /// Spec issues of `entry`, their pointers translated back into the file by `map`. An error
    /// at a place already reported (a field that was refused before the spec was built) is not
    /// repeated.
    mutating func add(_ issues: [SpecIssue], warnings: [SpecIssue] = [], entry: String, map: PointerMap) {
        for issue in issues {
            let pointer = map.source(for: issue.pointer)
            if problems.contains(where: { $0.entry == entry && $0.pointer == pointer }) { continue }
            error(entry, pointer, issue.code, issue.message)
        }
        for issue in warnings { warn(entry, map.source(for: issue.pointer), issue.code, issue.message) }
    }
}
