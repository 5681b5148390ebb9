import AlertCatalogs
import AlertQueue
import MicroHTTP

/// `/livez` (the process answers) and `/readyz` (catalogs loaded and the store able to take
/// writes; else 503 problem+json `urn:alertd:problem:store-unavailable` with the store's
/// `reason`: `disk-full`, `timeout`, `replaced`, …).
struct HealthHandlers {
    let catalogs: CatalogRegistry
    let store: any QueueStore

    struct Status: Encodable, ResponseGenerator {
        var status: String
        var catalogs: Int?
    }

    func register(in router: inout Router) {
        router.add("GET", "/livez") { _ in Status(status: "alive") }
        let count = catalogs.catalogs.count
        let store = self.store
        router.addAsync("GET", "/readyz") { _ in
            // Not ready is an error like any other: a 503 problem (store-unavailable).
            if let failure = await store.readiness() { throw failure }
            return Status(status: "ready", catalogs: count)
        }
    }
}
