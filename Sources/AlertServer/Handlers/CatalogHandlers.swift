import AlertCatalogs
import AlertSpec
import MicroHTTP

/// `/v1/catalogs`, a catalog's alert types, and rendering one alert. Every answer carries an
/// `ETag` and `Cache-Control: public, max-age=N` and honours `If-None-Match` (see
/// `CacheableResponse`): listings are encoded once per set of catalogs (`CatalogListings`);
/// renderings come from `RenderedAlerts`, the cache the queue shares, so a repeated render
/// costs a lookup and no encoding.
struct CatalogHandlers {
    /// Read once per request: a request answers from the catalogs it started with.
    let current: CurrentCatalogs

    /// Whether a query item steers rendering (`locale`, `platform`, `device`) rather than being
    /// an alert parameter. Compared, not hashed: this runs for every query item of every render.
    static func isRenderOption(_ name: String) -> Bool { name == "locale" || name == "platform" || name == "device" }
    static func isPlatform(_ name: String) -> Bool { name == "ios" || name == "android" }

    func register(in router: inout Router) {
        let current = current
        router.add("GET", "/v1/catalogs", keeping: .byTarget) { _ in current.now.listings.list }
        router.add("GET", "/v1/catalogs/{catalog}", keeping: .byTarget) { request in
            let name = request.path("catalog")
            guard let detail = current.now.listings.details[name] else { throw CatalogError.unknownCatalog(name) }
            return detail
        }
        // Kept by target (see KeptAnswers); an answer given again counts as a render cache hit.
        let countHit = current.now.alerts.countHit
        router.add("GET", "/v1/catalogs/{catalog}/alerts/{type}", keeping: .byTarget(counting: countHit)) { request in
            let served = current.now
            let alerts = served.alerts
            let catalog = try Self.catalog(request, in: served.registry)
            let type = request.path("type")
            guard catalog.entry(type) != nil else { throw CatalogError.unknownType(catalog: catalog.name, type: type) }
            let context = alerts.context(in: catalog, asked: try ClientAsk.of(request))
            return try alerts.rendering(of: type, in: catalog, try Self.parameters(of: request), context: context).response
        }
    }

    private static func catalog(_ request: Request, in catalogs: CatalogRegistry) throws -> any AlertCatalog {
        let name = request.path("catalog")
        guard let catalog = catalogs[name] else { throw CatalogError.unknownCatalog(name) }
        return catalog
    }

    /// The alert's parameters: every query item but the render options, each given once, within
    /// `ParameterLimits`.
    static func parameters(of request: Request) throws -> [String: ParameterValue] {
        let given = request.http.query.filter { !isRenderOption($0.name) }.map { (name: $0.name, value: $0.value ?? "") }
        // Most renders name no parameter (or only a locale): nothing to check or gather.
        guard !given.isEmpty else { return [:] }
        if let problem = ParameterLimits.problem(given) { throw APIError.badRequest(problem) }
        var parameters: [String: ParameterValue] = [:]
        for item in given {
            guard parameters.updateValue(.string(item.value), forKey: item.name) == nil else {
                throw APIError.badRequest("The parameter \"\(item.name)\" is given more than once.")
            }
        }
        return parameters
    }
}
