import AlertCatalogs
import AlertQueue
import MicroHTTP

/// `/livez` (the process answers) and `/readyz` (catalogs loaded and the store reachable).
struct HealthHandlers {
    let catalogs: CatalogRegistry
    let store: any QueueStore

    struct Status: Encodable, ResponseGenerator {
        var status: String
        var catalogs: Int?
        var reason: String?
    }

    func register(in router: inout Router) {
        router.add("GET", "/livez") { _ in Status(status: "alive") }
        let count = catalogs.catalogs.count
        let store = self.store
        router.addAsync("GET", "/readyz") { _ in
            guard await store.isReachable() else {
                return JSONResponse(
                    Status(status: "unavailable", catalogs: count, reason: "the queue store cannot be reached"), status: 503,
                    headers: ["Cache-Control": "no-store"])
            }
            return Status(status: "ready", catalogs: count)
        }
    }
}
