import AlertCatalogs
import AlertQueue
import Foundation
import MicroHTTP

/// The campaign API (admin only): `POST /v1/campaigns` makes one and answers at once (202), the
/// fan-out runs in the background (`CampaignRunner`); `GET /v1/campaigns` lists them, newest
/// first; `GET /v1/campaigns/{id}` shows one with its progress; `POST /v1/campaigns/{id}/recall`
/// stops it and takes back its live copies.
struct CampaignHandlers: Sendable {
    let catalogs: CurrentCatalogs
    let queue: QueueServices
    let store: any CampaignStore
    let runner: CampaignRunner

    /// The longest page of the listing, and the default one.
    static let pageLimit = (default: 20, max: 100)

    func register(in router: inout Router) {
        let handlers = self
        router.addAsync("POST", "/v1/campaigns") { try await handlers.create($0) }
        router.addAsync("GET", "/v1/campaigns") { try await handlers.list($0) }
        router.addAsync("GET", "/v1/campaigns/{id}") { try await handlers.show($0) }
        router.addAsync("POST", "/v1/campaigns/{id}/recall") { try await handlers.recall($0) }
    }

    func create(_ request: Request) async throws -> any ResponseGenerator {
        try queue.access.requireAdmin(request)
        let campaign = try CampaignRequest.campaign(body: request.http.body, alerts: catalogs.now.alerts, now: queue.clock.now())
        do {
            try await store.createCampaign(campaign)
        } catch CampaignError.exists(let id) {
            throw APIError.conflict(code: "campaign-exists", "A campaign with the id \(id) exists already.")
        }
        runner.kick()
        var response = try uncached(CampaignView(campaign, progress: nil), status: 202).response(for: request)
        response.headers.set("Location", "/v1/campaigns/\(campaign.id)")
        return response
    }

    func list(_ request: Request) async throws -> any ResponseGenerator {
        try queue.access.requireAdmin(request)
        let limit = try request.query("limit").map { text -> Int in
            guard let limit = Int(text), (1...Self.pageLimit.max).contains(limit) else {
                throw APIError.badRequest("limit is a whole number from 1 to \(Self.pageLimit.max).")
            }
            return limit
        } ?? Self.pageLimit.default
        let before = try request.query("before")
        let campaigns = try await store.campaigns(before: before, limit: limit + 1)
        let page = campaigns.prefix(limit)
        return uncached(CampaignList(campaigns: page.map { CampaignView($0, progress: nil) }, next: campaigns.count > limit ? page.last?.id : nil))
    }

    func show(_ request: Request) async throws -> any ResponseGenerator {
        try queue.access.requireAdmin(request)
        let id = request.path("id")
        guard let campaign = try await store.campaign(id: id), let progress = try await store.progress(campaign: id) else {
            throw APIError.notFound("There is no campaign \(id).")
        }
        return uncached(CampaignView(campaign, progress: progress))
    }

    func recall(_ request: Request) async throws -> any ResponseGenerator {
        try queue.access.requireAdmin(request)
        _ = try JSONBody.read(request, members: [])
        let id = request.path("id")
        guard let recall = try await store.recall(campaign: id, now: queue.clock.now()) else {
            throw APIError.notFound("There is no campaign \(id).")
        }
        for session in recall.sessions { queue.polls.notify(session) }
        queue.polls.feed.notify()
        return uncached(CampaignRecalled(id: id, cancelled: recall.cancelled, withdrawn: recall.withdrawn))
    }
}
