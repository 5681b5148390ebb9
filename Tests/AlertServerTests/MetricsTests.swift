import AlertCatalogs
import AlertQueue
import AlertServer
import Foundation
import Logging
import MicroHTTP
import TestExecutors
import Testing
@testable import HTTPTestSupport
@testable import AlertdTestSupport

// GET /metrics: Prometheus text; counts that move by what was done, route patterns and never
// raw paths, the render cache, the queue's census by lane and state, long-polls, store errors.

@Suite("Metrics", .ownThread)
struct MetricsTests {
    static let render = "/v1/catalogs/app/alerts/questionExit"
    static let renderRoute = #"method="GET",route="/v1/catalogs/{catalog}/alerts/{type}""#

    @Test("requests count by route pattern and status, with a duration histogram; cache hits and misses move")
    func requestsAndCache() throws {
        try withLiveServer { port in
            // Given a server that has been scraped once
            let client = try RawHTTPClient(port: port)
            let scrape = try client.request("GET", "/metrics")
            #expect(scrape.status == 200)
            #expect(scrape.header("Content-Type") == "text/plain; version=0.0.4; charset=utf-8")
            let before = try Samples(scrape.text)

            // When a spec is rendered three times in one locale and once in another, and two
            // unknown paths are asked for
            for locale in ["zh-Hans", "zh-Hans", "zh-Hans", "fr"] {
                #expect(try client.request("GET", Self.render + "?locale=\(locale)").status == 200)
            }
            for path in ["/nowhere/secret-path-1", "/v1/catalogs/app/alerts"] {
                #expect(try client.request("GET", path).status == 404)
            }
            let after = try Samples(try waitForCount(client, of: Self.renderRoute, to: 4))

            // Then the counts moved by that much, under the route's pattern
            #expect(after["alertd_http_requests_total{\(Self.renderRoute),status=\"200\"}"] == 4)
            #expect(after.delta(#"alertd_http_requests_total{route="unmatched",status="404"}"#, since: before) == 2)
            #expect(after["alertd_http_request_duration_seconds_count{\(Self.renderRoute)}"] == 4)
            #expect(after["alertd_http_request_duration_seconds_bucket{\(Self.renderRoute),le=\"+Inf\"}"] == 4)
            #expect((after["alertd_http_request_duration_seconds_sum{\(Self.renderRoute)}"] ?? 0) > 0)
            // And the first scrape counts itself by the next one
            #expect(after[#"alertd_http_requests_total{method="GET",route="/metrics",status="200"}"#] ?? 0 >= 1)
            // And two lookups missed (one per locale), two hit
            #expect(after.delta(#"alertd_render_cache_lookups_total{result="miss"}"#, since: before) == 2)
            #expect(after.delta(#"alertd_render_cache_lookups_total{result="hit"}"#, since: before) == 2)
            // And no raw path shows
            #expect(!after.text.contains("questionExit") && !after.text.contains("secret-path") && !after.text.contains("nowhere"))
        }
    }

    @Test("queue items by lane and state, enqueues, deliveries, acks and waiting long-polls")
    func queue() throws {
        try withLiveService { port, service in
            // Given five alerts queued in two sessions: three modal, a toast, a HUD
            let first = try SessionClient.open(port: port, session: "m1")
            let second = try SessionClient.open(port: port, session: "m2")
            let before = try Samples(try RawHTTPClient(port: port).request("GET", "/metrics").text)
            for alert in [#"{"alert":"app/questionExit"}"#, #"{"alert":"app/answerExit"}"#, #"{"alert":"app/welcomeToast","params":{"name":"Ann"}}"#, #"{"alert":"app/saved"}"#] {
                _ = try first.enqueue(alert)
            }
            _ = try second.enqueue(#"{"alert":"app/logoutConfirm"}"#)
            // And one of them delivered: the HUD (900), done as it is delivered
            let delivered = try first.delivered()
            #expect(delivered.spec.lane == "hud")

            // When scraped
            let queued = try Samples(try RawHTTPClient(port: port).request("GET", "/metrics").text)
            // Then the census counts them by lane and state
            let live = { (samples: Samples, lane: String) in
                (samples["alertd_queue_items{lane=\"\(lane)\",state=\"queued\"}"] ?? 0)
                    + (samples["alertd_queue_items{lane=\"\(lane)\",state=\"presenting\"}"] ?? 0)
            }
            #expect(live(queued, "modal") == 3 && live(queued, "toast") == 1 && live(queued, "hud") == 0, "\(queued.text)")
            let presenting = ["modal", "toast", "hud"].map { queued["alertd_queue_items{lane=\"\($0)\",state=\"presenting\"}"] ?? 0 }
            #expect(presenting.reduce(0, +) == 0)
            #expect(queued.delta("alertd_queue_enqueues_total", since: before) == 5)
            #expect(queued.delta("alertd_queue_deliveries_total", since: before) == 1)

            // When the delivered one is acknowledged and a long-poll waits in another session
            #expect(try first.ack(delivered.ticket).status == 200)
            let done = DispatchSemaphore(value: 0)
            Thread.detachNewThread {
                _ = try? SessionClient.open(port: port, session: "m3").next(wait: 10)
                done.signal()
            }
            #expect(eventually(within: .seconds(5)) { service.queue.polls.count == 1 })
            let acknowledged = try Samples(try RawHTTPClient(port: port).request("GET", "/metrics").text)
            // Then the ack counts, the acknowledged item is no longer live, and the poll shows,
            // in flight beside the scrape
            #expect(acknowledged.delta("alertd_queue_acks_total", since: before) == 1)
            #expect(["modal", "toast", "hud"].map { live(acknowledged, $0) }.reduce(0, +) == 4)
            #expect(acknowledged["alertd_long_polls_waiting"] == 1)
            #expect(eventually(within: .seconds(5)) { requestsInFlight(port: port) == 2 })
            _ = try SessionClient(port: port, session: "m3").admin("POST", "/queue", json: #"{"alert":"app/saved"}"#)
            #expect(done.wait(timeout: .now() + 10) == .success)
            // And the item the enqueue handed to the poll counts as a delivery
            let woken = try Samples(try RawHTTPClient(port: port).request("GET", "/metrics").text)
            #expect(woken.delta("alertd_queue_deliveries_total", since: before) == 2)
            #expect(eventually(within: .seconds(5)) { requestsInFlight(port: port) == 1 })
        }
    }

    @Test("503s from the store count as store errors; the scrape still answers and the cause is logged")
    func storeErrors() async throws {
        // Given a service whose store cannot be reached
        let logs = LogCollector()
        let service = try AlertService(
            catalogs: .builtIn(),
            queue: QueueServices(store: UnreachableStore(), credentials: TestCredentials.credentials),
            logger: logs.logger(.json))
        // When readiness is asked twice
        for id in ["store-1", "store-2"] {
            let ready = await service.answer(HTTPRequest(method: "GET", path: "/readyz", requestID: id))
            #expect(ready.status == 503)
        }
        // Then the scrape answers, counting two store errors
        let scrape = await service.answer(HTTPRequest(method: "GET", path: "/metrics"))
        #expect(scrape.status == 200)
        let samples = try Samples(String(decoding: scrape.body, as: UTF8.self))
        #expect(samples["alertd_store_errors_total{reason=\"unreachable\"}"] == 2)
        // And each cause is logged at error level with its request id
        let line = try #require(logs.line(containing: "store-2"))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(object["level"] as? String == "error")
        #expect(object["path"] as? String == "/readyz")
        #expect(object["status"] as? Int == 503)
    }

    /// Scrapes until the render route's count reaches `count` (a request is counted once its
    /// response went out, a moment after the client has it).
    private func waitForCount(_ client: RawHTTPClient, of labels: String, to count: Double) throws -> String {
        var text = ""
        _ = eventually(within: .seconds(3)) {
            text = (try? client.request("GET", "/metrics").text) ?? ""
            return (try? Samples(text))?["alertd_http_request_duration_seconds_count{\(labels)}"] == count
        }
        return text
    }
}

/// The samples of a scrape, by series (`name{labels}`).
struct Samples {
    let text: String
    private var values: [String: Double] = [:]

    init(_ text: String) throws {
        self.text = text
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            let parts = line.split(separator: " ")
            guard parts.count == 2, let value = Double(parts[1]) else {
                throw RawHTTPError.malformed("not a sample: \(line)")
            }
            values[String(parts[0])] = value
        }
    }

    subscript(series: String) -> Double? { values[series] }

    func delta(_ series: String, since earlier: Samples) -> Double {
        (self[series] ?? 0) - (earlier[series] ?? 0)
    }
}

/// A store that never answers: every call throws `unavailable`.
private struct UnreachableStore: QueueStore {
    static let error = QueueError.unavailable("test: unreachable")
    func enqueue(_ item: NewItem, now: Date) async throws -> EnqueueResult { throw Self.error }
    func enqueue(copies: [NewItem], now: Date) async throws -> [Result<EnqueueResult, QueueError>] { throw Self.error }
    func next(session: String, now: Date) async throws -> QueueItem? { throw Self.error }
    func nextDelivery(session: String, now: Date) async throws -> Delivery? { throw Self.error }
    func isOwedWithdraw(session: String) async throws -> Bool { throw Self.error }
    func acknowledge(
        session: String, ticket: String, input: String?, now: Date, answer: @escaping @Sendable (QueueItem) throws -> AckAnswer
    ) async throws -> Acknowledgement { throw Self.error }
    func items(session: String, now: Date) async throws -> [QueueItem] { throw Self.error }
    func item(session: String, ticket: String) async throws -> QueueItem? { throw Self.error }
    func timeline(session: String, ticket: String) async throws -> [StoredEvent] { throw Self.error }
    func history(session: String, before: HistoryCursor?, limit: Int) async throws -> HistoryPage { throw Self.error }
    func events(after cursor: EventCursor?, limit: Int) async throws -> EventPage { throw Self.error }
    func rollUpOutcomes(limit: Int) async throws -> OutcomeRollUp { throw Self.error }
    func outcomes(alert: String, days: ClosedRange<OutcomeDay>) async throws -> [OutcomeCounter] { throw Self.error }
    func purgeOutcomes(before day: OutcomeDay) async throws -> Int { throw Self.error }
    func purgePacing(before cutoff: Date) async throws -> Int { throw Self.error }
    func cancel(session: String, ticket: String?, by cause: CancelCause, now: Date) async throws -> Int { throw Self.error }
    func recall(_ scope: RecallScope, now: Date) async throws -> Recall { throw Self.error }
    func erase(session: String) async throws -> Erasure { throw Self.error }
    func purge(finishedBefore cutoff: Date, after: PurgeCursor?, limit: Int) async throws -> PurgeBatch { throw Self.error }
    func hold(session: String, until: Date?) async throws { throw Self.error }
    func holdUntil(session: String, now: Date) async throws -> Date? { throw Self.error }
    func snapshot(session: String, now: Date, finished: Int) async throws -> SessionSnapshot { throw Self.error }
    func isReachable() async -> Bool { false }
    func census(now: Date) async throws -> QueueCensus { throw Self.error }
    func register(session: String, user: String?, topics: [String]?, now: Date) async throws -> KnownSession { throw Self.error }
    func setUser(session: String, user: String?, now: Date) async throws -> KnownSession { throw Self.error }
    func setTopics(session: String, topics: [String], now: Date) async throws -> KnownSession { throw Self.error }
    func knownSession(_ session: String) async throws -> KnownSession? { throw Self.error }
    func sessions(ofUser user: String) async throws -> [KnownSession] { throw Self.error }
    func markSeen(_ times: [String: Date]) async throws { throw Self.error }
    func idleSessions(seenBefore cutoff: Date, limit: Int) async throws -> [String] { throw Self.error }
    func forget(session: String, seenBefore cutoff: Date) async throws -> Erasure? { throw Self.error }
    func setProfile(_ profile: SessionProfile?, for owner: ProfileOwner) async throws { throw Self.error }
    func profile(of owner: ProfileOwner) async throws -> SessionProfile? { throw Self.error }
    func effectiveProfile(session: String) async throws -> SessionProfile { throw Self.error }
}
