import AlertCatalogs

/// `/livez` and `/readyz`.
struct HealthHandlers {
    let catalogs: CatalogRegistry

    struct Status: Encodable, ResponseGenerator {
        var status: String
        var catalogs: Int?
    }

    func register(in router: inout Router) {
        router.add("GET", "/livez") { _ in Status(status: "alive") }
        let count = catalogs.catalogs.count
        router.add("GET", "/readyz") { _ in Status(status: "ready", catalogs: count) }
    }
}
