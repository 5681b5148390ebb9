import AlertCatalogs
import AlertQueue
import AlertSpec
import Foundation
import TestExecutors
import Testing

@testable import AlertServer
@testable import AlertdTestSupport
@testable import HTTPTestSupport

/// The `pacing` member of an enqueue: the item carries the alert's rule tightened by the
/// enqueue's (an ad-hoc spec only the enqueue's), rules that can hold are accepted over real
/// sockets (those refused are among `LiveEnqueueTests`' bad bodies), and the catalog listing
/// shows each alert's rule.
@Suite("Enqueue pacing: the alert's rule, tightened by the enqueue", .ownThread)
struct EnqueuePacingTests {
    let alerts: RenderedAlerts

    init() throws {
        alerts = RenderedAlerts(catalogs: try CatalogRegistry.builtIn())
    }

    private func item(_ body: String) throws -> NewItem {
        try EnqueueRequest.item(session: "s", body: Array(body.utf8), alerts: alerts, now: Date(timeIntervalSince1970: 1_800_000_000))
    }

    private let gapMinute = Pacing(minGap: .init(duration: .seconds(60)), whenCapped: .defer)

    @Test("an alert queued without a rule of its own carries its catalog's; one without a rule none")
    func catalogRule() throws {
        #expect(try item(#"{"alert":"app/newMessages","params":{"count":2,"sender":"Ana"}}"#).pacing == gapMinute)
        #expect(try item(#"{"alert":"app/questionExit"}"#).pacing == .none)
        #expect(try item(#"{"alert":"app/questionExit","pacing":null}"#).pacing == .none)
    }

    @Test("an enqueue's rule tightens the alert's: limits add, the longer gap and drop win")
    func tightens() throws {
        let queued = try item(#"""
            {"alert":"app/newMessages","params":{"count":2,"sender":"Ana"},
             "pacing":{"limits":[{"count":5,"period":"1d","scope":"user"}],"minGap":{"duration":"30s"},"whenCapped":"drop"}}
            """#)
        #expect(queued.pacing == Pacing(
            limits: [.init(count: 5, period: .days(1), scope: .user)], minGap: .init(duration: .seconds(60)), whenCapped: .drop))
    }

    @Test("an ad-hoc spec has no catalog rule: only the enqueue's own")
    func adHocSpec() throws {
        let spec = #""spec":{"kind":"hud","state":"success"}"#
        #expect(try item("{\(spec)}").pacing == .none)
        #expect(try item(#"{\#(spec),"pacing":{"once":{"scope":"user"}}}"#).pacing == Pacing(once: .init(scope: .user)))
    }

    @Test("a campaign's template keeps its rule where stores keep it, and one without a rule reads back none")
    func campaignTemplate() throws {
        let template = try item(#"{"alert":"app/pushPermission","pacing":{"limits":[{"count":1,"period":"90d","scope":"user"}]}}"#)
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let stored = try StoredCampaign.template(json: try StoredCampaign.json(template: template, now: now))
        #expect(stored.pacing == template.pacing)
        #expect(stored.pacing.limits == [.init(count: 1, period: .days(90), scope: .user)])
        let plain = try item(#"{"alert":"app/questionExit"}"#)
        #expect(try StoredCampaign.template(json: try StoredCampaign.json(template: plain, now: now)).pacing == .none)
    }

    // MARK: Over real sockets

    @Test(
        "a rule that can hold is accepted: a dropped gap past the TTL, a deferred one within it, a rule on a spec",
        arguments: [
            #"{"alert":"app/newMessages","params":{"count":1,"sender":"A"},"ttl":30,"pacing":{"whenCapped":"drop"}}"#,
            #"{"alert":"app/newMessages","params":{"count":1,"sender":"A"},"ttl":60}"#,
            #"{"alert":"app/questionExit","pacing":{"limits":[{"count":2,"period":86400}],"once":{}}}"#,
            #"{"spec":{"kind":"hud","state":"success"},"pacing":{"minGap":{"duration":"10s","scope":"user"}}}"#,
        ])
    func accepted(body: String) throws {
        try withLiveServer { port in
            let admin = try SessionClient(port: port, session: "paced")
            expectQueueAnswer(try admin.admin("POST", "/queue", json: body), status: 201)
            #expect(try admin.list().items.count == 1)
        }
    }

    @Test("the catalog listing shows an alert's rule, and no pacing member for an alert without one, as openapi.yaml says")
    func listed() async throws {
        let bodies = try withLiveServer { port in
            let response = try RawHTTPClient(port: port).request("GET", "/v1/catalogs/app")
            #expect(response.status == 200)
            let alerts = try #require(try response.jsonObject()?["alerts"] as? [[String: Any]])
            let byType = Dictionary(uniqueKeysWithValues: alerts.compactMap { alert in (alert["type"] as? String).map { ($0, alert) } })
            let push = try #require(byType["pushPermission"]?["pacing"] as? [String: Any])
            #expect(push["whenCapped"] as? String == "drop")
            let limit = try #require((push["limits"] as? [[String: Any]])?.first)
            #expect(limit["count"] as? Int == 1 && limit["period"] as? String == "30d" && limit["scope"] as? String == "session")
            let gap = (byType["newMessages"]?["pacing"] as? [String: Any])?["minGap"] as? [String: Any]
            #expect(gap?["duration"] as? String == "1m")
            #expect(byType["questionExit"] != nil && byType["questionExit"]?["pacing"] == nil)
            let onboarding = try RawHTTPClient(port: port).request("GET", "/v1/catalogs/onboarding")
            return [("app", response.body), ("onboarding", onboarding.body)]
        }
        let failures = try await DocumentSchema.failures(of: bodies, against: "CatalogDetail")
        #expect(failures.isEmpty, "\(failures)")
    }
}
