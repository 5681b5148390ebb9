import AlertQueue
import AlertServer
import Dispatch
import Foundation
import Locking
import Logging
import TestClocks
import TestExecutors
import Testing
@testable import AlertdTestSupport
@testable import HTTPTestSupport

// The retention over real sockets: once the clock passes the retention, a pass of
// `HistoryRetention` leaves nothing of the finished items, and the live ones stay.

@Suite("Live server: retention of finished items")
struct LiveRetentionTests {
    @Test("once the clock passes the retention, the finished items' history and timelines are gone; live items stay")
    func retentionPurgesHistory() throws {
        let clock = ManualClock()
        let logs = LogCollector()
        try withLiveService(clock: clock) { port, service in
            // Given a done item, a cancelled one and a queued one
            let app = try SessionClient.open(port: port, session: "kept-30-days")
            let done = try app.enqueue(#"{"alert":"app/redeemInvite"}"#).ticket
            #expect(try app.delivered().ticket == done)
            expectQueueAnswer(try app.app("POST", "/queue/\(done)/ack", json: #"{"action":"redeem","input":"Q7"}"#), status: 200)
            let cancelled = try app.enqueue(#"{"alert":"app/pushPermission"}"#).ticket
            expectQueueAnswer(try app.admin("DELETE", "/queue/\(cancelled)"), status: 200)
            let queued = try app.enqueue(#"{"alert":"app/questionExit"}"#).ticket
            let retention = HistoryRetention(
                store: service.queue.store, clock: clock, retention: 30 * 86_400, outcomesRetention: 400 * 86_400, pause: .zero,
                logger: logs.logger(.json, level: .info), rollUps: service.outcomes)
            let day = OutcomeDay(clock.now()).description

            // When a pass runs within the retention, nothing goes
            #expect(try waitBlocking { try await retention.pass() } == .nothing)
            #expect(try Self.history(app) == [cancelled, done])
            #expect(!logs.all.contains { $0.contains("history purged") })

            // When the clock moves past the retention and a pass runs
            clock.advance(by: 30 * 86_400 + 1)
            let purged = try waitBlocking { try await retention.pass() }

            // Then the finished items went with their timelines, and the pass said so
            #expect(purged == Erasure(items: 2, events: 5))  // enqueued, delivered, acknowledged; enqueued, cancelled
            #expect(try Self.history(app).isEmpty)
            for ticket in [done, cancelled] {
                #expect(try app.admin("GET", "/queue/\(ticket)").status == 404)
            }
            let kept = try app.admin("GET", "/queue/\(queued)")
            expectQueueAnswer(kept, status: 200)
            #expect((try kept.jsonObject()?["timeline"] as? [Any])?.count == 1)
            let line = try #require(logs.line(containing: "history purged"), "lines: \(logs.all)")
            #expect(line.contains(#""items":"2""#) && line.contains(#""events":"5""#), "\(line)")

            // And the day's outcomes, rolled up before the purge, remain
            let outcomes = "/v1/alerts/app/redeemInvite/outcomes?from=\(day)&to=\(day)"
            let figures = try #require((try Self.admin(port, outcomes).jsonObject()?["days"] as? [[String: Any]])?.first)
            #expect(figures["enqueued"] as? Int == 1 && figures["delivered"] as? Int == 1 && figures["acknowledged"] as? Int == 1, "\(figures)")

            // Until the outcomes' own retention passes too
            clock.advance(by: 400 * 86_400)
            _ = try waitBlocking { try await retention.pass() }
            let gone = try #require((try Self.admin(port, outcomes).jsonObject()?["days"] as? [[String: Any]])?.first)
            #expect(gone["enqueued"] as? Int == 0 && gone["acknowledged"] as? Int == 0, "\(gone)")
        }
    }

    /// The tickets `GET …/history` lists, newest first (as the admin: the app's token has expired
    /// once the clock moved a month).
    private static func history(_ app: SessionClient) throws -> [String] {
        let response = try app.admin("GET", "/history")
        expectQueueAnswer(response, status: 200)
        let items = try #require(try response.jsonObject()?["items"] as? [[String: Any]])
        return items.compactMap { $0["ticket"] as? String }
    }

    private static func admin(_ port: Int, _ path: String) throws -> RawHTTPResponse {
        try RawHTTPClient(port: port).request("GET", path, headers: [("Authorization", "Bearer \(TestCredentials.adminToken)")])
    }
}
