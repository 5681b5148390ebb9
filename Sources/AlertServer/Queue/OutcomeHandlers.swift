import AlertCatalogs
import AlertQueue
import Foundation

/// `GET /v1/alerts/{catalog}/{type}/outcomes` (admin): an alert's outcomes per day, from the
/// daily counters, rolled up to the moment of the request first.
struct OutcomeHandlers: Sendable {
    let catalogs: CurrentCatalogs
    let rollUps: OutcomeRollUps
    let access: Access
    let clock: any AlertClock

    /// The days a report spans when `from` is not given, and at most.
    static let days = (default: 30, max: 400)

    func register(in router: inout Router) {
        let handlers = self
        router.addAsync("GET", "/v1/alerts/{catalog}/{type}/outcomes") { try await handlers.outcomes($0) }
    }

    /// `from` and `to` are UTC days (`2026-12-05`), both included; `to` is today by default and
    /// `from` the 30 days to it; `from` after `to` lists no day. An alert no catalog serves any more is reported while its
    /// counters are kept; one that never had any is a 404.
    func outcomes(_ request: Request) async throws -> any ResponseGenerator {
        try access.requireAdmin(request)
        let (catalog, type) = (request.path("catalog"), request.path("type"))
        let alert = "\(catalog)/\(type)"
        let to = try Self.day(request, "to") ?? OutcomeDay(clock.now())
        // A longer span is cut to its last `max` days, which the answer's `from` shows.
        let from = max(try Self.day(request, "from") ?? to.adding(1 - Self.days.default), to.adding(1 - Self.days.max))
        try await rollUps.catchUp()
        let counters = from <= to ? try await rollUps.store.outcomes(alert: alert, days: from...to) : []
        if counters.isEmpty {
            let registry = catalogs.now.registry
            guard let served = registry[catalog] else { throw CatalogError.unknownCatalog(catalog) }
            guard served.entry(type) != nil else { throw CatalogError.unknownType(catalog: catalog, type: type) }
        }
        return uncached(OutcomeReportView(alert: alert, from: from, to: to, report: from <= to ? OutcomeReport(alert: alert, days: from...to, counters: counters) : nil))
    }

    private static func day(_ request: Request, _ name: String) throws -> OutcomeDay? {
        try request.query(name).map { text in
            guard let day = OutcomeDay(text: text) else { throw APIError.badRequest("\(name) is a day, YYYY-MM-DD (UTC), not \"\(text)\".") }
            return day
        }
    }
}

/// An outcome report as JSON: the total, then every day.
struct OutcomeReportView: Encodable {
    var alert: String
    var from: String
    var to: String
    var total: Figures
    var days: [Figures]

    /// The view of `report`, or of no day (`from` after `to`).
    init(alert: String, from: OutcomeDay, to: OutcomeDay, report: OutcomeReport?) {
        self.alert = alert
        self.from = from.description
        self.to = to.description
        total = Figures(report?.total ?? OutcomeReport.Day(day: from), day: nil)
        days = report?.days.map { Figures($0, day: $0.day.description) } ?? []
    }

    struct Figures: Encodable {
        var day: String?
        var enqueued, delivered, acknowledged, dismissed, expired, cancelled, dead, capped: Int
        var actions: [Action]
        var answerSeconds: AnswerSeconds?

        init(_ figures: OutcomeReport.Day, day: String?) {
            self.day = day
            (enqueued, delivered, acknowledged, dismissed) = (figures.enqueued, figures.delivered, figures.acknowledged, figures.dismissed)
            (expired, cancelled, dead, capped) = (figures.expired, figures.cancelled, figures.dead, figures.capped)
            actions = figures.actions.map { Action(action: $0.action.isEmpty ? nil : $0.action, role: $0.role.isEmpty ? nil : $0.role, count: $0.count) }
            answerSeconds = figures.answerSeconds.map { AnswerSeconds(p50: Self.rounded($0.p50), p90: Self.rounded($0.p90)) }
        }

        private static func rounded(_ seconds: Double) -> Double { (seconds * 100).rounded() / 100 }
    }

    /// Acks by action; an ack without an action has neither id nor role.
    struct Action: Encodable {
        var action: String?
        var role: String?
        var count: Int
    }

    struct AnswerSeconds: Encodable {
        var p50: Double
        var p90: Double
    }
}
