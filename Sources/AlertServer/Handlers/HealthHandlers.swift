import AlertCatalogs
import AlertQueue
import MicroHTTP

/// `/livez` (the process answers) and `/readyz` (catalogs loaded and the store able to take
/// writes; else 503 problem+json `urn:alertd:problem:store-unavailable` with the store's
/// `reason`: `disk-full`, `timeout`, `replaced`, …).
struct HealthHandlers {
    let catalogs: CurrentCatalogs
    let store: any QueueStore

    struct Status: Encodable, ResponseGenerator {
        var status: String
        var catalogs: Int?
    }

    func register(in router: inout Router) {
        router.add("GET", "/livez") { _ in Status(status: "alive") }
        let (catalogs, store) = (catalogs, store)
        router.addAsync("GET", "/readyz") { _ in
            // Not ready is an error like any other: a 503 problem (store-unavailable).
            if let failure = await store.readiness() { throw failure }
            return Status(status: "ready", catalogs: catalogs.now.registry.catalogs.count)
        }
    }
}
