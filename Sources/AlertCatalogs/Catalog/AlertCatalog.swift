import AlertSpec

/// A named set of alert types that can be listed and rendered: a built-in enum catalog or, later,
/// a catalog file. Catalogs are immutable and shared by every worker thread.
public protocol AlertCatalog: Sendable {
    /// The name in ids and URLs (`app` in `app/questionExit`).
    var name: String { get }
    /// The language the catalog is written in; the fallback locale.
    var sourceLanguage: String { get }
    /// Every locale it renders, the source language included.
    var locales: [String] { get }
    /// Its alert types, in declaration order.
    var entries: [AlertTypeInfo] { get }
    /// Whether a rendering can depend on the device (its String Catalog varies by device):
    /// when not, renderings for every device are the same and are kept once.
    var variesByDevice: Bool { get }
    /// One alert as a validated, normalized draft for `context` (its locale one of `locales`;
    /// see `context(for:acceptLanguage:device:)`). Throws `CatalogError` for an unknown type,
    /// `ParameterError` for bad parameters and `InvalidSpec` when the parameters make a spec
    /// that breaks the rules.
    func draft(type: String, parameters: [String: ParameterValue], in context: RenderContext) throws -> SpecDraft
    /// The key that makes two queued alerts the same, when the alert decides it (messages from
    /// one sender replace each other); nil leaves it to type and parameters.
    func dedupeKey(type: String, parameters: [String: ParameterValue]) -> String?
    /// `draft(type:parameters:in:)` and `dedupeKey(type:parameters:)` together, as an enqueue
    /// asks for both: a catalog that reads its parameters once for both does so here.
    func draftAndDedupeKey(
        type: String, parameters: [String: ParameterValue], in context: RenderContext
    ) throws -> (draft: SpecDraft, dedupeKey: String?)
}

extension AlertCatalog {
    public var variesByDevice: Bool { false }

    public func dedupeKey(type: String, parameters: [String: ParameterValue]) -> String? { nil }

    public func draftAndDedupeKey(
        type: String, parameters: [String: ParameterValue], in context: RenderContext
    ) throws -> (draft: SpecDraft, dedupeKey: String?) {
        (try draft(type: type, parameters: parameters, in: context), dedupeKey(type: type, parameters: parameters))
    }

    /// `draftAndDedupeKey(type:parameters:in:)` in `locale`, on no particular device.
    public func draftAndDedupeKey(
        type: String, parameters: [String: ParameterValue], locale: String
    ) throws -> (draft: SpecDraft, dedupeKey: String?) {
        try draftAndDedupeKey(type: type, parameters: parameters, in: RenderContext(locale: locale))
    }

    /// The draft in `locale`, on no particular device.
    public func draft(type: String, parameters: [String: ParameterValue], locale: String) throws -> SpecDraft {
        try draft(type: type, parameters: parameters, in: RenderContext(locale: locale))
    }

    /// One alert rendered as a spec, id `name/type`.
    public func render(type: String, parameters: [String: ParameterValue], in context: RenderContext) throws -> AlertSpec {
        try draft(type: type, parameters: parameters, in: context).spec(id: "\(name)/\(type)", locale: context.locale)
    }

    /// One alert rendered as a spec in `locale`, on no particular device.
    public func render(type: String, parameters: [String: ParameterValue], locale: String) throws -> AlertSpec {
        try render(type: type, parameters: parameters, in: RenderContext(locale: locale))
    }

    /// The entry for a type, or nil.
    public func entry(_ type: String) -> AlertTypeInfo? { entries.first { $0.type == type } }
}

/// An alert type as catalog listings show it.
public struct AlertTypeInfo: Sendable, Equatable, Encodable {
    public var type: String
    public var kind: AlertKind
    public var parameters: [ParameterInfo]
    /// The sample's parameters.
    public var example: [String: ParameterValue]
    /// How often the alert may be shown; listed only when it has a rule.
    public var pacing: Pacing

    public init(type: String, kind: AlertKind, parameters: [ParameterInfo], example: [String: ParameterValue], pacing: Pacing = .none) {
        self.type = type
        self.kind = kind
        self.parameters = parameters
        self.example = example
        self.pacing = pacing
    }

    private enum CodingKeys: String, CodingKey { case type, kind, parameters, example, pacing }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(type, forKey: .type)
        try container.encode(kind, forKey: .kind)
        try container.encode(parameters, forKey: .parameters)
        try container.encode(ParameterList(example), forKey: .example)
        if !pacing.isNone { try container.encode(pacing, forKey: .pacing) }
    }
}

/// Why a catalog could not serve a request or could not be loaded.
public struct CatalogError: Error, Sendable, Equatable, CustomStringConvertible {
    private enum Reason: Equatable {
        case unknownCatalog(String)
        case unknownType(catalog: String, type: String)
        case invalid(catalog: String, problems: [String])
    }

    private let reason: Reason

    public static func unknownCatalog(_ name: String) -> Self { .init(reason: .unknownCatalog(name)) }
    public static func unknownType(catalog: String, type: String) -> Self {
        .init(reason: .unknownType(catalog: catalog, type: type))
    }
    public static func invalid(catalog: String, problems: [String]) -> Self {
        .init(reason: .invalid(catalog: catalog, problems: problems))
    }

    /// True for lookups of something that does not exist (a 404), false for a broken catalog.
    public var isNotFound: Bool {
        if case .invalid = reason { return false }
        return true
    }

    /// Every problem of a broken catalog, one sentence each.
    public var problems: [String] {
        if case .invalid(_, let problems) = reason { return problems }
        return [description]
    }

    public var description: String {
        switch reason {
        case .unknownCatalog(let name): "There is no catalog \"\(name)\"."
        case .unknownType(let catalog, let type): "The catalog \"\(catalog)\" has no alert \"\(type)\"."
        case .invalid(let catalog, let problems):
            "The catalog \"\(catalog)\" is invalid:\n" + problems.map { "  - \($0)" }.joined(separator: "\n")
        }
    }
}
