import AlertSpec
import Foundation

/// A catalog read from a file, named after it (`promo.yaml` is the catalog `promo`). Two
/// formats, told apart by shape:
///
/// - alertd's own, `{"sourceLanguage": "en", "alerts": {"<type>": <spec template>}}`: each
///   template is a spec draft (as `POST /v1/specs/validate` takes it) whose strings may hold
///   `{name}` placeholders, the alert's parameters (see `SpecTemplate`);
/// - a Critical Moments config, whose named actions of type `alert` become alerts (see
///   `CriticalMomentsConfig`).
///
/// ```swift
/// let promo = try FileCatalog(contentsOf: URL(fileURLWithPath: "catalogs/promo.json"))
/// let spec = try promo.render(type: "welcome", parameters: ["name": .string("Ana")], locale: "en")
/// ```
///
/// Loading renders every alert with its example and validates it: a file that breaks any rule
/// throws `CatalogFileError` with all its problems. Where `next` actions lead is checked when
/// catalogs are loaded together (`CatalogFolder`, then `CatalogRegistry`).
public struct FileCatalog: AlertCatalog {
    public enum Format: String, Sendable {
        case alertd
        case criticalMoments
    }

    public let name: String
    public let sourceLanguage: String
    /// The source language, and the locales of the sibling String Catalog if there is one.
    public let locales: [String]
    /// Sorted by type.
    public let entries: [AlertTypeInfo]
    /// The file, as it was named to the loader.
    public let file: String
    public let format: Format
    /// What loading noted without refusing the file: skipped actions, ignored fields, buttons
    /// normalized by the validator.
    public let warnings: [CatalogProblem]
    let templates: [String: SpecTemplate]
    public let variesByDevice: Bool
    /// The validated drafts of the templates without parameters (every Critical Moments
    /// alert), by type and context, for each locale's own system words: the same on every
    /// request.
    private let fixed: [FixedKey: SpecDraft]
    private let text: TemplateText
    private let validator = SpecValidator()

    private struct FixedKey: Hashable {
        var type: String
        var context: RenderContext
    }

    /// Reads and checks one catalog file; throws `CatalogFileError`.
    public init(contentsOf url: URL) throws {
        var problems = ProblemList(file: url.relativePath)
        guard let root = CatalogDocument.read(url, into: &problems) else {
            throw CatalogFileError(problems: problems.problems, warnings: problems.warnings)
        }
        try self.init(url: url, root: root, problems: problems)
    }

    /// Checks a file already parsed; `problems` may hold what reading it found.
    init(url: URL, root: JSONTree, problems: ProblemList) throws {
        var problems = problems
        let name: String
        if let valid = CatalogDocument.catalogName(of: url) {
            name = valid
        } else {
            name = url.deletingPathExtension().lastPathComponent
            problems.error(
                CatalogProblem.none, CatalogProblem.none, "invalid-file-name",
                "\"\(name)\" cannot name a catalog: use only letters, digits, _ and - before the extension.")
        }

        var sourceLanguage = "en"
        var format = Format.alertd
        var templates: [(type: String, template: SpecTemplate)] = []
        var pacing: [String: Pacing] = [:]
        switch Self.format(of: root) {
        case .alertd?:
            let file = AlertdCatalogFile.read(root, into: &problems)
            sourceLanguage = file.sourceLanguage
            templates = file.templates
            pacing = file.pacing
        case .criticalMoments?:
            format = .criticalMoments
            templates = CriticalMomentsConfig.read(root, catalog: name, into: &problems)
        case nil:
            problems.error(
                CatalogProblem.none, "", "unknown-format",
                "This is neither an alertd catalog (an object with \"alerts\") nor a Critical Moments config"
                    + " (named actions with an \"actionType\").")
        }

        let translations = CatalogTranslations.load(besides: url, sourceLanguage: sourceLanguage, into: &problems)
        translations?.check(used: templates.reduce(into: Set()) { $0.formUnion(TemplateText.keys(in: $1.template.tree)) }, into: &problems)
        let text = TemplateText(translations: translations, systemButtons: format == .criticalMoments)
        let locales = translations?.locales ?? [sourceLanguage]
        let devices = translations?.strings.variesByDevice == true ? Device.allCases : [.other]
        let validator = SpecValidator()
        var entries: [AlertTypeInfo] = []
        var fixed: [FixedKey: SpecDraft] = [:]
        for (type, template) in templates.sorted(by: { $0.type < $1.type }) {
            guard CatalogDocument.isValidType(type) else {
                problems.error(
                    type, CatalogProblem.none, "invalid-type-name",
                    "\"\(type)\" cannot name an alert: start with a letter or digit, then use only letters, digits, ., _ and -.")
                continue
            }
            // Every alert is checked with its example in every locale and device, as the built-ins are.
            var kind: AlertKind?
            for locale in locales {
                for device in devices {
                    let context = RenderContext(locale: locale, device: device)
                    let example = template.filled(with: template.example, in: text.localize(template.tree, in: context, values: template.example))
                    switch SpecReader.read(json: example) {
                    case .failure(let invalid):
                        problems.add(invalid.issues, entry: type, map: template.pointers)
                    case .success(let draft):
                        let result = validator.validate(draft)
                        let first = locale == sourceLanguage && device == .other
                        problems.add(result.errors, warnings: first ? result.warnings : [], entry: type, map: template.pointers)
                        if template.parameters.isEmpty { fixed[FixedKey(type: type, context: context)] = result.draft }
                        kind = draft.kind
                    }
                }
            }
            if let kind {
                entries.append(AlertTypeInfo(
                    type: type, kind: kind, parameters: template.parameterInfos, example: template.example,
                    pacing: pacing[type] ?? Pacing.none))
            }
        }
        guard problems.problems.isEmpty else {
            throw CatalogFileError(problems: problems.problems.byEntry, warnings: problems.warnings.byEntry)
        }
        self.name = name
        self.sourceLanguage = sourceLanguage
        self.locales = locales
        self.text = text
        self.variesByDevice = devices.count > 1
        self.entries = entries
        self.file = url.relativePath
        self.format = format
        self.warnings = problems.warnings.byEntry
        self.templates = Dictionary(uniqueKeysWithValues: templates.map { ($0.type, $0.template) })
        self.fixed = fixed
    }

    public func draft(type: String, parameters: [String: ParameterValue], in context: RenderContext) throws -> SpecDraft {
        guard let template = templates[type] else { throw CatalogError.unknownType(catalog: name, type: type) }
        let values = try template.typed(parameters)
        if let draft = fixed[FixedKey(type: type, context: context)] { return draft }
        let tree = template.filled(with: values, in: text.localize(template.tree, in: context, values: values))
        switch SpecReader.read(json: tree) {
        case .failure(let invalid): throw invalid
        case .success(let draft): return try validator.validated(draft)
        }
    }

    /// The format `root` is written in, by its shape; nil for neither.
    static func format(of root: JSONTree) -> Format? {
        guard let members = root.object else { return nil }
        if root["actions"]?["namedActions"] != nil { return .criticalMoments }
        if let alerts = root["alerts"], alerts["actionType"] == nil { return .alertd }
        if members.values.contains(where: { $0["actionType"] != nil }) { return .criticalMoments }
        return nil
    }
}

extension [CatalogProblem] {
    /// The file's own problems first, then each entry's together, entries by name, each
    /// entry's in the order found.
    fileprivate var byEntry: [CatalogProblem] {
        func rank(_ item: (offset: Int, element: CatalogProblem)) -> (Int, String, Int) {
            (item.element.entry == CatalogProblem.none ? 0 : 1, item.element.entry, item.offset)
        }
        return enumerated()
            .sorted { rank($0) < rank($1) }
            .map(\.element)
    }
}
