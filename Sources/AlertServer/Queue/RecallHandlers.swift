import AlertCatalogs
import AlertQueue
import Foundation
import MicroHTTP

/// `POST /v1/alerts/{catalog}/{type}/recall` (admin): takes back every live copy of an alert,
/// in every session: queued ones cancelled, presenting ones withdrawn (their devices' polls
/// woken with the withdraw). Answers once all are taken back, with the counts.
struct RecallHandlers: Sendable {
    let catalogs: CurrentCatalogs
    let queue: QueueServices

    func register(in router: inout Router) {
        let handlers = self
        router.addAsync("POST", "/v1/alerts/{catalog}/{type}/recall") { try await handlers.recall($0) }
    }

    /// An alert no catalog serves any more may still have live items, and is recalled; one that
    /// no catalog serves and that had none is a 404 (a misspelt name, most likely).
    func recall(_ request: Request) async throws -> any ResponseGenerator {
        try queue.access.requireAdmin(request)
        _ = try JSONBody.read(request, members: [])
        let (catalog, type) = (request.path("catalog"), request.path("type"))
        let alert = "\(catalog)/\(type)"
        let recall = try await queue.store.recall(.alert(alert), now: queue.clock.now())
        if recall.cancelled + recall.withdrawn == 0 {
            let registry = catalogs.now.registry
            guard let served = registry[catalog] else { throw CatalogError.unknownCatalog(catalog) }
            guard served.entry(type) != nil else { throw CatalogError.unknownType(catalog: catalog, type: type) }
        }
        for session in recall.sessions { queue.polls.notify(session) }
        queue.polls.feed.notify()
        return uncached(Recalled(alert: alert, cancelled: recall.cancelled, withdrawn: recall.withdrawn))
    }
}

struct Recalled: Encodable {
    var alert: String
    var cancelled: Int
    var withdrawn: Int
}
