import AlertQueue
import MicroHTTP

extension QueueHandlers {
    /// `DELETE /v1/sessions/{session}`: the admin erases a session (a user's "delete my data").
    /// Its waiting polls answer 204 at once: what they waited for is gone. Erasing an unknown
    /// session erases nothing.
    func erase(_ request: Request) async throws -> any ResponseGenerator {
        let session = try Self.session(of: request)
        try access.requireAdmin(request)
        let erased = try await store.erase(session: session)
        polls.erased(session)
        return uncached(Erased(session: session, erased: .init(items: erased.items, events: erased.events)))
    }
}

struct Erased: Encodable {
    struct Counts: Encodable {
        var items: Int
        var events: Int
    }

    var session: String
    var erased: Counts
}
