import AlertCatalogs
import AlertSpec

/// The answers of `GET /v1/catalogs` and `GET /v1/catalogs/{catalog}`, encoded once for a set
/// of catalogs (they change only when the catalogs are reloaded).
struct CatalogListings: Sendable {
    let list: CacheableResponse
    let details: [String: CacheableResponse]

    /// - Parameter maxAge: seconds clients and shared caches may keep an answer.
    init(catalogs: CatalogRegistry, maxAge: Int) throws {
        let cacheControl = CacheableResponse.publicCaching(maxAge: maxAge)
        func cacheable(_ value: some Encodable) throws -> CacheableResponse {
            let bytes = try OrderedJSONEncoder().encode(value)
            return CacheableResponse(json: bytes, etag: EntityTag.strong(for: bytes), cacheControl: cacheControl)
        }
        list = try cacheable(CatalogList(
            catalogs: catalogs.catalogs.map {
                .init(name: $0.name, sourceLanguage: $0.sourceLanguage, locales: $0.locales, count: $0.entries.count)
            }))
        var details: [String: CacheableResponse] = [:]
        for catalog in catalogs.catalogs {
            details[catalog.name] = try cacheable(CatalogDetail(
                name: catalog.name, sourceLanguage: catalog.sourceLanguage, locales: catalog.locales, alerts: catalog.entries))
        }
        self.details = details
    }

    struct CatalogList: Encodable {
        struct Item: Encodable {
            var name: String
            var sourceLanguage: String
            var locales: [String]
            /// What `?locale=` may also ask: the same for every catalog, listed with each so a
            /// client's locale picker needs no other source.
            var pseudoLocales = PseudoLocale.tags
            var count: Int
        }
        var catalogs: [Item]
    }

    struct CatalogDetail: Encodable {
        var name: String
        var sourceLanguage: String
        var locales: [String]
        var pseudoLocales = PseudoLocale.tags
        var alerts: [AlertTypeInfo]
    }
}
