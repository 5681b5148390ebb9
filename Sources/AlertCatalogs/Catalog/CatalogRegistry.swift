import AlertSpec
import Foundation

/// Every catalog the server serves, by name, in a stable order. It is also the directory that
/// `next` actions are resolved against: building a registry checks that every alert's `next`
/// actions, in every catalog, name an alert that exists with parameters that build it.
public struct CatalogRegistry: Sendable, AlertDirectory {
    public let catalogs: [any AlertCatalog]
    private let byName: [String: any AlertCatalog]

    /// Fails when two catalogs share a name or an alert's `next` action leads nowhere.
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
        try checkReferences()
    }

    /// The catalogs compiled into alertd, each checked in full.
    public static func builtIn() throws -> CatalogRegistry {
        try CatalogRegistry(builtInCatalogs())
    }

    /// The built-in catalogs, not yet joined into a registry, each with its String Catalog.
    public static func builtInCatalogs() throws -> [any AlertCatalog] {
        [
            try EnumCatalog(name: "app", AppAlert.self, localizer: try builtInStrings("app")),
            try EnumCatalog(name: "onboarding", OnboardingAlert.self, localizer: try builtInStrings("onboarding")),
        ]
    }

    /// The translations of a built-in catalog, from its bundled `.xcstrings`.
    public static func builtInStrings(_ catalog: String) throws -> StringCatalogLocalizer {
        guard let url = Bundle.module.url(forResource: catalog, withExtension: "xcstrings") else {
            throw CatalogError.invalid(catalog: catalog, problems: ["its String Catalog \(catalog).xcstrings is not bundled"])
        }
        do {
            return try StringCatalogLocalizer(contentsOf: url)
        } catch {
            throw CatalogError.invalid(catalog: catalog, problems: ["\(catalog).xcstrings is not a String Catalog: \(error)"])
        }
    }

    public subscript(name: String) -> (any AlertCatalog)? { byName[name] }

    /// Looks up a catalog and a type and renders it.
    public func render(
        catalog name: String, type: String, parameters: [String: ParameterValue], locale requested: String?, device: Device = .other
    ) throws -> AlertSpec {
        guard let catalog = byName[name] else { throw CatalogError.unknownCatalog(name) }
        return try catalog.render(type: type, parameters: parameters, in: catalog.context(for: requested, device: device))
    }

    public func problem(alert: String, parameters: [String: ParameterValue]) -> (code: String, message: String)? {
        Self.problem(alert: alert, parameters: parameters, in: byName)
    }

    /// Why `alert` (`catalog/type`) cannot be built from `parameters` among `catalogs`, or nil.
    static func problem(
        alert: String, parameters: [String: ParameterValue], in catalogs: [String: any AlertCatalog]
    ) -> (code: String, message: String)? {
        guard let id = AlertID(alert), let catalog = catalogs[id.catalog], catalog.entry(id.type) != nil else {
            return ("unknown-alert", "There is no alert \"\(alert)\".")
        }
        do {
            _ = try catalog.draft(type: id.type, parameters: parameters, locale: catalog.sourceLanguage)
            return nil
        } catch let error as ParameterError {
            return ("invalid-next-params", "\(alert): \(error.description)")
        } catch {
            return ("invalid-next-params", "\(alert) cannot be rendered with these parameters: \(error)")
        }
    }

    /// Every entry's example, validated with this registry as the directory.
    private func checkReferences() throws {
        let validator = SpecValidator(directory: self)
        for catalog in catalogs {
            var problems: [String] = []
            for entry in catalog.entries {
                guard let draft = try? catalog.draft(type: entry.type, parameters: entry.example, locale: catalog.sourceLanguage)
                else { continue }
                problems += validator.validate(draft).errors.map { "\(entry.type): \($0)" }
            }
            if !problems.isEmpty { throw CatalogError.invalid(catalog: catalog.name, problems: problems) }
        }
    }
}

extension AlertCatalog {
    /// The locale to render for what the client asked (`?locale=`, else `Accept-Language`),
    /// among `locales`, or a pseudo-locale `?locale=` names; see `LocaleNegotiation`.
    public func locale(for requested: String?, acceptLanguage: String? = nil) -> String {
        LocaleNegotiation.locale(query: requested, acceptLanguage: acceptLanguage, available: locales, source: sourceLanguage)
    }

    /// What to render for what the client asked: the catalog's locale as `locale(for:)` finds
    /// it; the system words in that locale, or when the catalog has nothing closer to what was
    /// asked than its source language, in the platform's own words for the request (a catalog
    /// in English alone still shows a Japanese client Japanese OK and Cancel); the device when
    /// the catalog varies by it, else `other`.
    public func context(for requested: String?, acceptLanguage: String? = nil, device: Device = .other) -> RenderContext {
        let locale = locale(for: requested, acceptLanguage: acceptLanguage)
        var systemLocale = locale
        if locale == sourceLanguage {
            let system = LocaleNegotiation.locale(
                query: requested, acceptLanguage: acceptLanguage, available: SystemWords.locales, source: sourceLanguage)
            if PluralRules.language(of: system) != PluralRules.language(of: locale) { systemLocale = system }
        }
        return RenderContext(locale: locale, systemLocale: systemLocale, device: variesByDevice ? device : .other)
    }
}
