import AlertSpec

/// Every catalog the server serves, by name, in a stable order.
public struct CatalogRegistry: Sendable {
    public let catalogs: [any AlertCatalog]
    private let byName: [String: any AlertCatalog]

    /// Fails when two catalogs share a name.
    public init(_ catalogs: [any AlertCatalog]) throws {
        var byName: [String: any AlertCatalog] = [:]
        for catalog in catalogs {
            guard byName[catalog.name] == nil else {
                throw CatalogError.invalid(catalog: catalog.name, problems: ["two catalogs are named \"\(catalog.name)\""])
            }
            byName[catalog.name] = catalog
        }
        self.catalogs = catalogs
        self.byName = byName
    }

    /// The catalogs compiled into alertd, each checked in full.
    public static func builtIn() throws -> CatalogRegistry {
        try CatalogRegistry([EnumCatalog(name: "app", AppAlert.self, localizer: SourceLocalizer(sourceLanguage: "en"))])
    }

    public subscript(name: String) -> (any AlertCatalog)? { byName[name] }

    /// Looks up `catalog/type` (or a catalog and a type) and renders it.
    public func render(
        catalog name: String, type: String, parameters: [String: ParameterValue], locale requested: String?
    ) throws -> AlertSpec {
        guard let catalog = byName[name] else { throw CatalogError.unknownCatalog(name) }
        return try catalog.render(type: type, parameters: parameters, locale: catalog.locale(for: requested))
    }
}

extension AlertCatalog {
    /// The locale to render for a requested tag: RFC 4647 lookup among `locales`, else the source.
    public func locale(for requested: String?) -> String {
        guard let requested else { return sourceLanguage }
        return LocaleMatch.lookup(requested, in: locales) ?? sourceLanguage
    }
}
