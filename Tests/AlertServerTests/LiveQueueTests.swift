#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import AlertCatalogs
import AlertQueue
import AlertServer
import AlertSpec
import Dispatch
import Foundation
import MicroHTTP
import Synchronization
import Testing

// The session queue API of DESIGN.md ("HTTP API", "Queue semantics"), checked over real sockets
// against the real server: MicroHTTP on libmicrohttpd serving AlertService with the built-in
// catalogs and an in-memory SQLite queue store, on an ephemeral port.

// MARK: - Wire shapes of the queue API (written from the contract, not borrowed from the server's types)

struct IssuedTokenBody: Decodable {
    var session: String
    var token: String
    var expiresAt: String
}

struct EnqueuedBody: Decodable, Equatable {
    var ticket: String
    var position: Int
    var duplicate: Bool
}

struct QueueItemBody: Decodable {
    var ticket: String
    var alert: String?
    var dedupeKey: String
    var priority: Int
    var lane: String
    var state: String
    var enqueuedAt: String
    var expiresAt: String?
    var deliveries: Int
}

struct QueueListBody: Decodable {
    var session: String
    var items: [QueueItemBody]
}

struct DeliveryBody: Decodable {
    var ticket: String
    var spec: EnvelopeBody
    var deliveries: Int
}

struct AcknowledgedBody: Decodable {
    var ticket: String
    var state: String
    var chained: String?
}

struct CancelledBody: Decodable {
    var cancelled: Int
}

struct HoldBody: Decodable {
    var session: String
    var until: String?
}

struct InvalidRequestBody: Decodable {
    struct Issue: Decodable, CustomStringConvertible {
        var pointer: String
        var code: String
        var message: String
        var description: String { "\(pointer) \(code)" }
    }
    var type: String
    var status: Int
    var errors: [Issue]
}

/// A moment as the API writes it (RFC 3339, UTC).
func apiDate(_ text: String) -> Date? {
    ISO8601DateFormatter().date(from: text)
}

/// Whether `condition` holds within `limit`, looking every 10 ms.
func eventually(within limit: Duration = .seconds(3), _ condition: () -> Bool) -> Bool {
    let deadline = ContinuousClock.now + limit
    while !condition() {
        guard ContinuousClock.now < deadline else { return false }
        Thread.sleep(forTimeInterval: 0.01)
    }
    return true
}

// MARK: - A client of one session's queue

/// The queue API of one session over one keep-alive connection: admin calls with the admin
/// token, app calls with the session's token (issued by `open`).
final class SessionClient {
    let client: RawHTTPClient
    let session: String
    let adminToken: String
    var token = ""

    init(port: Int, session: String, adminToken: String = TestCredentials.adminToken, timeout: Duration = .seconds(5)) throws {
        client = try RawHTTPClient(port: port, timeout: timeout)
        self.session = session
        self.adminToken = adminToken
    }

    /// A client whose session token has been issued.
    static func open(port: Int, session: String, adminToken: String = TestCredentials.adminToken, timeout: Duration = .seconds(5))
        throws -> SessionClient
    {
        let session = try SessionClient(port: port, session: session, adminToken: adminToken, timeout: timeout)
        let response = try session.admin("POST", "/token")
        guard response.status == 201 else {
            throw RawHTTPError.malformed("token: \(response.status) \(response.text)")
        }
        session.token = try response.decode(IssuedTokenBody.self).token
        return session
    }

    var base: String { "/v1/sessions/\(session)" }

    /// A request with `Authorization: Bearer <token>` (none for nil), to `base + path`.
    func call(
        _ method: String, _ path: String, bearer: String?, json: String? = nil, headers: [(String, String)] = []
    ) throws -> RawHTTPResponse {
        var all = headers
        if let bearer { all.append(("Authorization", "Bearer \(bearer)")) }
        if json != nil { all.append(("Content-Type", "application/json")) }
        return try client.request(method, base + path, headers: all, body: json.map { Array($0.utf8) })
    }

    func admin(_ method: String, _ path: String, json: String? = nil) throws -> RawHTTPResponse {
        try call(method, path, bearer: adminToken, json: json)
    }

    func app(_ method: String, _ path: String, json: String? = nil, headers: [(String, String)] = []) throws -> RawHTTPResponse {
        try call(method, path, bearer: token, json: json, headers: headers)
    }

    /// Enqueues `json`, which must be queued anew (201).
    func enqueue(_ json: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> EnqueuedBody {
        let response = try admin("POST", "/queue", json: json)
        try #require(response.status == 201, "enqueue \(json): \(response.status) \(response.text)", sourceLocation: sourceLocation)
        let enqueued = try response.decode(EnqueuedBody.self)
        #expect(!enqueued.duplicate, sourceLocation: sourceLocation)
        return enqueued
    }

    func next(wait: Int? = nil, locale: String? = nil, headers: [(String, String)] = []) throws -> RawHTTPResponse {
        var query: [String] = []
        if let wait { query.append("wait=\(wait)") }
        if let locale { query.append("locale=\(locale)") }
        return try app("GET", "/next" + (query.isEmpty ? "" : "?" + query.joined(separator: "&")), headers: headers)
    }

    /// `next` that must deliver (200).
    func delivered(wait: Int? = nil, locale: String? = nil, sourceLocation: SourceLocation = #_sourceLocation) throws -> DeliveryBody {
        let response = try next(wait: wait, locale: locale)
        try #require(response.status == 200, "next: \(response.status) \(response.text)", sourceLocation: sourceLocation)
        return try response.decode(DeliveryBody.self)
    }

    func ack(_ ticket: String, action: String? = nil) throws -> RawHTTPResponse {
        try app("POST", "/queue/\(ticket)/ack", json: action.map { #"{"action":"\#($0)"}"# })
    }

    /// `GET …/queue` with the admin token.
    func list(sourceLocation: SourceLocation = #_sourceLocation) throws -> QueueListBody {
        let response = try admin("GET", "/queue")
        try #require(response.status == 200, "list: \(response.status) \(response.text)", sourceLocation: sourceLocation)
        return try response.decode(QueueListBody.self)
    }
}

/// Checks a queue answer's status, JSON type and `Cache-Control: no-store`.
func expectQueueAnswer(_ response: RawHTTPResponse, status: Int, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(response.status == status, "\(response.status) \(response.text)", sourceLocation: sourceLocation)
    #expect(response.mediaType == "application/json", sourceLocation: sourceLocation)
    #expect(response.header("Cache-Control") == "no-store", sourceLocation: sourceLocation)
}

/// A 422 with `errors`, returning their pointers.
func expectInvalidRequest(_ response: RawHTTPResponse, sourceLocation: SourceLocation = #_sourceLocation) throws -> [InvalidRequestBody.Issue] {
    _ = try expectProblem(response, status: 422, sourceLocation: sourceLocation)
    #expect(response.header("Cache-Control") == "no-store", sourceLocation: sourceLocation)
    let problem = try response.decode(InvalidRequestBody.self)
    #expect(problem.type == "urn:alertd:problem:invalid-request", sourceLocation: sourceLocation)
    #expect(!problem.errors.isEmpty, sourceLocation: sourceLocation)
    return problem.errors
}

let adHocAlert = #"{"kind":"alert","title":"Maintenance tonight","message":"alertd is down from 2:00 to 2:30.","actions":[{"id":"ok","label":"Got it"}]}"#

@Suite("Live server: session queues")
struct LiveQueueTests {
    let registry: CatalogRegistry

    init() throws {
        registry = try CatalogRegistry.builtIn()
    }

    // MARK: The whole flow

    @Test("token, three alerts and duplicates, next by priority in the client's locale, ack, list, cancel one and all")
    func fullFlow() throws {
        try withLiveServer { port in
            // Given a session with a token
            let s = try SessionClient.open(port: port, session: "user-42:iphone")

            // When three modal alerts are queued, lowest priority first
            let push = try s.enqueue(#"{"alert":"app/pushPermission"}"#)  // 300
            let messages = try s.enqueue(#"{"alert":"app/newMessages","params":{"count":1,"sender":"Ana"},"ttl":600}"#)  // 400
            let exit = try s.enqueue(#"{"alert":"app/questionExit"}"#)  // 700
            // Then each goes ahead of the others in its lane
            #expect([push.position, messages.position, exit.position] == [Int](repeating: 1, count: 3))
            #expect(Set([push.ticket, messages.ticket, exit.ticket]).count == 3)

            // And the same alert again is 200 with the same ticket, nothing queued:
            // exactly the same, and newMessages from the same sender whatever the count (its own key)
            for (body, ticket, position) in [
                (#"{"alert":"app/pushPermission"}"#, push.ticket, 3),
                (#"{"alert":"app/newMessages","params":{"count":7,"sender":"Ana"}}"#, messages.ticket, 2),
            ] {
                let again = try s.admin("POST", "/queue", json: body)
                expectQueueAnswer(again, status: 200)
                #expect(try again.decode(EnqueuedBody.self) == EnqueuedBody(ticket: ticket, position: position, duplicate: true))
            }

            // And the list has them in delivery order, all queued
            let listed = try s.list()
            #expect(listed.session == "user-42:iphone")
            #expect(listed.items.map(\.ticket) == [exit.ticket, messages.ticket, push.ticket])
            #expect(listed.items.map(\.alert) == ["app/questionExit", "app/newMessages", "app/pushPermission"])
            #expect(listed.items.map(\.priority) == [700, 400, 300])
            #expect(listed.items.allSatisfy { $0.state == "queued" && $0.lane == "modal" && $0.deliveries == 0 })
            #expect(listed.items[0].expiresAt == nil)
            let enqueuedAt = try #require(apiDate(listed.items[1].enqueuedAt))
            let expiresAt = try #require(listed.items[1].expiresAt.flatMap(apiDate))
            #expect(abs(expiresAt.timeIntervalSince(enqueuedAt) - 600) <= 1)

            // When the app asks for the next one in French
            let first = try s.next(locale: "fr")
            // Then it is the highest priority, rendered in French, not to be cached
            expectQueueAnswer(first, status: 200)
            #expect(first.header("Content-Language") == "fr")
            let delivery = try first.decode(DeliveryBody.self)
            #expect(delivery.ticket == exit.ticket)
            #expect(delivery.deliveries == 1)
            let spec = try JSONDecoder().decode(DeliveredSpec.self, from: Data(first.body)).spec
            #expect(spec == (try registry.render(catalog: "app", type: "questionExit", parameters: [:], locale: "fr")))
            #expect(spec.locale == "fr")

            // And while it presents, the modal lane gives nothing else
            let busy = try s.next()
            #expect(busy.status == 204)
            #expect(busy.header("Cache-Control") == "no-store")

            // And the list shows it presenting, first
            let presenting = try s.list()
            #expect(presenting.items.map(\.ticket) == [exit.ticket, messages.ticket, push.ticket])
            #expect(presenting.items.map(\.state) == ["presenting", "queued", "queued"])
            #expect(presenting.items[0].deliveries == 1)

            // When the app acknowledges it with the button the user tapped
            let acked = try s.ack(exit.ticket, action: "leave")
            expectQueueAnswer(acked, status: 200)
            let done = try acked.decode(AcknowledgedBody.self)
            #expect(done.ticket == exit.ticket)
            #expect(done.state == "done")
            #expect(done.chained == nil)
            #expect(try acked.jsonObject()?.keys.contains("chained") == false)

            // Then next gives the following one, in the language of Accept-Language
            let second = try s.next(headers: [("Accept-Language", "de-DE, de;q=0.9, en;q=0.5")])
            expectQueueAnswer(second, status: 200)
            #expect(second.header("Content-Language") == "de")
            #expect(try second.decode(DeliveryBody.self).ticket == messages.ticket)
            let german = try JSONDecoder().decode(DeliveredSpec.self, from: Data(second.body)).spec
            #expect(
                german
                    == (try registry.render(
                        catalog: "app", type: "newMessages", parameters: ["count": .integer(1), "sender": .string("Ana")], locale: "de")))

            // And an ack without a body ends it too; acknowledging again changes nothing
            expectQueueAnswer(try s.ack(messages.ticket), status: 200)
            let twice = try s.ack(messages.ticket)
            expectQueueAnswer(twice, status: 200)
            #expect(try twice.decode(AcknowledgedBody.self).state == "done")

            // And done items leave the list
            #expect(try s.list().items.map(\.ticket) == [push.ticket])

            // When the admin cancels one
            let cancelOne = try s.admin("DELETE", "/queue/\(push.ticket)")
            expectQueueAnswer(cancelOne, status: 200)
            #expect(try cancelOne.decode(CancelledBody.self).cancelled == 1)
            #expect(try s.list().items.isEmpty)
            // Then acknowledging it is 410, and so is cancelling it again
            let goneAck = try s.ack(push.ticket)
            #expect(try expectProblem(goneAck, status: 410).type == "urn:alertd:problem:ticket-gone")
            #expect(goneAck.header("Cache-Control") == "no-store")
            _ = try expectProblem(try s.admin("DELETE", "/queue/\(push.ticket)"), status: 410)
            // And a done item cannot be cancelled either
            _ = try expectProblem(try s.admin("DELETE", "/queue/\(exit.ticket)"), status: 410)

            // When two more are queued, one delivered, and the admin cancels everything
            let a = try s.enqueue(#"{"alert":"app/logoutConfirm"}"#)
            let b = try s.enqueue(#"{"alert":"app/shareSheet"}"#)
            #expect(try s.delivered().ticket == b.ticket)  // 800 before 700
            let cancelAll = try s.admin("DELETE", "/queue")
            expectQueueAnswer(cancelAll, status: 200)
            // Then both went, the presenting one too, and nothing is left to deliver
            #expect(try cancelAll.decode(CancelledBody.self).cancelled == 2)
            #expect(try s.list().items.isEmpty)
            #expect(try s.next().status == 204)
            _ = try expectProblem(try s.ack(a.ticket), status: 410)
            _ = try expectProblem(try s.ack(b.ticket), status: 410)
            // And cancelling an empty queue is 200 with 0
            #expect(try s.admin("DELETE", "/queue").decode(CancelledBody.self).cancelled == 0)

            // And tickets the session does not have are 404
            for response in [try s.ack("AAAAAAAAAAAAAAAAAAAAAA"), try s.admin("DELETE", "/queue/AAAAAAAAAAAAAAAAAAAAAA")] {
                #expect(try expectProblem(response, status: 404).type == "urn:alertd:problem:unknown-ticket")
            }
            // Including another session's
            let other = try SessionClient.open(port: port, session: "someone-else")
            let theirs = try other.enqueue(#"{"alert":"app/saved"}"#)
            _ = try expectProblem(try s.ack(theirs.ticket), status: 404)
            _ = try expectProblem(try s.admin("DELETE", "/queue/\(theirs.ticket)"), status: 404)
            #expect(try other.list().items.map(\.ticket) == [theirs.ticket])
        }
    }

    // MARK: Long-polls

    @Test("a long-poll (wait=5) on one connection is answered by an enqueue on another, well before its deadline")
    func longPollWokenByEnqueue() throws {
        try withLiveService { port, service in
            // Given an app waiting for its next alert, up to 5 s, with nothing queued
            let app = try SessionClient.open(port: port, session: "poller", timeout: .seconds(10))
            let started = ContinuousClock.now
            try app.client.send(
                RawHTTPClient.requestBytes("GET", "/v1/sessions/poller/next?wait=5", headers: [("Authorization", "Bearer \(app.token)")]))
            #expect(eventually { service.queue.polls.count == 1 }, "the poll never waited")

            // When the backend enqueues an alert for that session on another connection
            let backend = try SessionClient(port: port, session: "poller")
            let enqueued = try backend.enqueue(#"{"alert":"app/redPacket","params":{"amount":8.88,"sender":"Wei"}}"#)
            let woken = ContinuousClock.now

            // Then the waiting poll answers with it at once, not at its deadline
            let response = try app.client.readResponse()
            let answered = ContinuousClock.now
            expectQueueAnswer(response, status: 200)
            #expect(try response.decode(DeliveryBody.self).ticket == enqueued.ticket)
            #expect(answered - woken < .seconds(3), "answered \(answered - woken) after the enqueue")
            #expect(answered - started < .seconds(4), "answered \(answered - started) after it was asked")
            #expect(service.queue.polls.count == 0)
        }
    }

    @Test("wait=1 with nothing queued answers 204 no-store after about a second; wait=0 at once")
    func longPollTimesOut() throws {
        try withLiveServer { port in
            let app = try SessionClient.open(port: port, session: "idle")
            // When the app waits a second with nothing queued
            let started = ContinuousClock.now
            let response = try app.next(wait: 1)
            let took = ContinuousClock.now - started
            // Then it is 204, not to be cached, after about a second
            #expect(response.status == 204)
            #expect(response.header("Cache-Control") == "no-store")
            #expect(response.body.isEmpty)
            #expect(took >= .milliseconds(900), "answered after \(took)")
            #expect(took < .seconds(3), "answered after \(took)")

            // And wait=0 (or no wait) does not wait
            for wait in [0, nil] as [Int?] {
                let quick = ContinuousClock.now
                #expect(try app.next(wait: wait).status == 204)
                #expect(ContinuousClock.now - quick < .milliseconds(800))
            }
            // And the connection is still usable
            #expect(try app.admin("GET", "/queue").status == 200)
        }
    }

    @Test("wait must be whole seconds from 0 to 30, given once", arguments: ["wait=31", "wait=-1", "wait=1.5", "wait=abc", "wait=", "wait=1&wait=2", "locale=fr&locale=de"])
    func badWait(query: String) throws {
        try withLiveServer { port in
            let app = try SessionClient.open(port: port, session: "s")
            let response = try app.app("GET", "/next?" + query)
            #expect(try expectProblem(response, status: 400).type == "urn:alertd:problem:bad-request")
        }
    }

    enum Waker: String, CaseIterable {
        case ack, cancel, release
    }

    @Test("an ack, a cancel or a hold release for the session wakes a waiting poll at once", arguments: Waker.allCases)
    func longPollWokenBy(waker: Waker) throws {
        try withLiveService { port, service in
            // Given a session whose modal lane is busy (or held), with another modal queued
            let app = try SessionClient.open(port: port, session: "busy", timeout: .seconds(10))
            let first = try app.enqueue(#"{"alert":"app/logoutConfirm"}"#)
            let second = try app.enqueue(#"{"alert":"app/answerExit"}"#)
            if waker == .release {
                expectQueueAnswer(try app.app("PUT", "/hold", json: #"{"seconds":60}"#), status: 200)
            } else {
                #expect(try app.delivered().ticket == first.ticket)
            }
            // And the app waiting for what comes next
            let poller = try SessionClient(port: port, session: "busy", timeout: .seconds(10))
            poller.token = app.token
            try poller.client.send(
                RawHTTPClient.requestBytes("GET", "/v1/sessions/busy/next?wait=5", headers: [("Authorization", "Bearer \(app.token)")]))
            #expect(eventually { service.queue.polls.count == 1 }, "the poll never waited")

            // When the lane is freed
            let freed = ContinuousClock.now
            switch waker {
            case .ack: expectQueueAnswer(try app.ack(first.ticket), status: 200)
            case .cancel: expectQueueAnswer(try app.admin("DELETE", "/queue/\(first.ticket)"), status: 200)
            case .release: expectQueueAnswer(try app.app("DELETE", "/hold"), status: 200)
            }

            // Then the poll answers with the next one at once
            let response = try poller.client.readResponse()
            let took = ContinuousClock.now - freed
            expectQueueAnswer(response, status: 200)
            let expected = waker == .release ? first.ticket : second.ticket
            #expect(try response.decode(DeliveryBody.self).ticket == expected)
            #expect(took < .seconds(3), "answered \(took) after the \(waker)")
        }
    }

    // MARK: Hold

    @Test("a hold keeps modal and toast items back and lets HUDs through; releasing it delivers them")
    func holdBlocksModalButNotHUD() throws {
        try withLiveServer { port in
            let app = try SessionClient.open(port: port, session: "typing")
            // When the app holds (default length) and alerts of every lane are queued
            let held = try app.app("PUT", "/hold")
            expectQueueAnswer(held, status: 200)
            let hold = try held.decode(HoldBody.self)
            #expect(hold.session == "typing")
            let until = try #require(hold.until.flatMap(apiDate))
            #expect(abs(until.timeIntervalSinceNow - 30) <= 2, "default hold is 30 s, until \(hold.until ?? "")")

            let modal = try app.enqueue(#"{"alert":"app/questionExit"}"#)
            let toast = try app.enqueue(#"{"alert":"app/welcomeToast","params":{"name":"Ana"}}"#)
            let hud = try app.enqueue(#"{"alert":"app/uploadProgress","params":{"percent":40}}"#)

            // Then only the HUD is delivered
            let first = try app.delivered()
            #expect(first.ticket == hud.ticket)
            #expect(first.spec.kind == "hud")
            #expect(first.spec.lane == "hud")
            let nothing = try app.next()
            #expect(nothing.status == 204)
            #expect(try app.list().items.first(where: { $0.ticket == modal.ticket })?.state == "queued")

            // And a newer HUD still flows during the hold, replacing the older
            let saved = try app.enqueue(#"{"alert":"app/saved"}"#)
            #expect(try app.delivered().ticket == saved.ticket)
            #expect(try app.next().status == 204)

            // When the hold is released
            let released = try app.app("DELETE", "/hold")
            expectQueueAnswer(released, status: 200)
            #expect(try released.decode(HoldBody.self).session == "typing")
            #expect(try released.jsonObject()?.keys.contains("until") == false)

            // Then the modal comes, and the toast alongside it (its own lane)
            #expect(try app.delivered().ticket == modal.ticket)
            let toastDelivery = try app.delivered()
            #expect(toastDelivery.ticket == toast.ticket)
            #expect(toastDelivery.spec.lane == "toast")
            #expect(try app.next().status == 204)
        }
    }

    @Test("hold seconds: more than 0 and at most 600", arguments: [
        (#"{"seconds":1}"#, 200), (#"{"seconds":0.5}"#, 200), (#"{"seconds":600}"#, 200), ("", 200),
        (#"{"seconds":0}"#, 422), (#"{"seconds":-1}"#, 422), (#"{"seconds":601}"#, 422), (#"{"seconds":true}"#, 422),
        (#"{"seconds":"10"}"#, 422), (#"{"secs":10}"#, 422), ("[10]", 400),
    ])
    func holdSeconds(body: String, status: Int) throws {
        // 1 and 1.0 are numbers, not `true` (JSONSerialization on Linux reads 1 as a Bool too,
        // so the body is decoded with Decodable).
        try withLiveServer { port in
            let app = try SessionClient.open(port: port, session: "s")
            let response = try app.app("PUT", "/hold", json: body.isEmpty ? nil : body)
            if status == 200 {
                expectQueueAnswer(response, status: 200)
            } else {
                _ = try expectProblem(response, status: status)
                if status == 422 {
                    let pointers = try response.decode(InvalidRequestBody.self).errors.map(\.pointer)
                    #expect(pointers == ["/seconds"] || pointers == ["/secs"], "\(pointers)")
                }
            }
        }
    }

    @Test("a long-poll waiting through a hold gets the held modal when the hold ends")
    func holdExpiryWakesPoll() throws {
        // Nothing notifies the end of a hold, so a waiting poll looks again when the hold ends.
        try withLiveServer { port in
            let app = try SessionClient.open(port: port, session: "paying", timeout: .seconds(12))
            expectQueueAnswer(try app.app("PUT", "/hold", json: #"{"seconds":2}"#), status: 200)
            let modal = try app.enqueue(#"{"alert":"app/redeemInvite"}"#)
            // When the app long-polls past the end of its hold
            let started = ContinuousClock.now
            let response = try app.next(wait: 8)
            let took = ContinuousClock.now - started
            // Then the modal arrives when the hold ends, not at the poll's deadline
            expectQueueAnswer(response, status: 200)
            #expect(try response.decode(DeliveryBody.self).ticket == modal.ticket)
            #expect(took >= .milliseconds(1500), "delivered during the hold, after \(took)")
            #expect(took < .seconds(5), "delivered \(took) after asking; the hold ended after 2 s")
        }
    }

    // MARK: Chains

    @Test("acking a card's `next` action queues its alert first in line, and next delivers it")
    func chain() throws {
        try withLiveServer { port in
            let app = try SessionClient.open(port: port, session: "first-launch")
            // Given the onboarding card flow delivered, and a higher-priority alert queued behind it
            let setup = try app.enqueue(#"{"alert":"onboarding/setup"}"#)
            let card = try app.delivered(locale: "ja")
            #expect(card.ticket == setup.ticket)
            #expect(card.spec.id == "onboarding/setup")
            #expect(card.spec.kind == "card")
            #expect(card.spec.locale == "ja")
            let logout = try app.enqueue(#"{"alert":"app/logoutConfirm"}"#)  // 700

            // When the app acks with an action the card does not have
            let unknown = try app.ack(setup.ticket, action: "done.nope")
            // Then it is 422 at /action, and the card is still presenting
            let issues = try expectInvalidRequest(unknown)
            #expect(issues.map(\.pointer) == ["/action"])
            #expect(issues.first?.code == "unknown-action")
            #expect(try app.list().items.first?.state == "presenting")

            // When the user picks "I have an invite code" on the last page (a `next` action)
            let acked = try app.ack(setup.ticket, action: "done.alternative")
            expectQueueAnswer(acked, status: 200)
            let done = try acked.decode(AcknowledgedBody.self)
            #expect(done.state == "done")
            let chained = try #require(done.chained, "no chained ticket")

            // Then app/redeemInvite (priority 300) is first in line, ahead of logoutConfirm (700)
            let listed = try app.list().items
            #expect(listed.map(\.ticket) == [chained, logout.ticket])
            #expect(listed.first?.alert == "app/redeemInvite")
            let next = try app.delivered(locale: "ja")
            #expect(next.ticket == chained)
            #expect(next.spec.id == "app/redeemInvite")
            #expect(next.spec.locale == "ja")

            // And an action without `next` chains nothing
            let redeemed = try app.ack(chained, action: "redeem")
            expectQueueAnswer(redeemed, status: 200)
            #expect(try redeemed.decode(AcknowledgedBody.self).chained == nil)
            #expect(try app.delivered().ticket == logout.ticket)
        }
    }

    // MARK: Ad-hoc specs

    @Test("an ad-hoc spec is queued, listed without an alert id, and delivered as adhoc/<ticket> in locale und")
    func adHocSpec() throws {
        try withLiveServer { port in
            let app = try SessionClient.open(port: port, session: "ops")
            // When an operator queues a spec of their own
            let enqueued = try app.enqueue(#"{"spec":\#(adHocAlert)}"#)
            // Then the same spec again is a duplicate
            let again = try app.admin("POST", "/queue", json: #"{"spec":\#(adHocAlert)}"#)
            expectQueueAnswer(again, status: 200)
            #expect(try again.decode(EnqueuedBody.self).ticket == enqueued.ticket)

            // And the list shows it without an alert id, in the modal lane, with the default priority
            let list = try app.admin("GET", "/queue")
            let item = try #require((try list.jsonObject()?["items"] as? [[String: Any]])?.first)
            #expect(item["alert"] == nil)
            #expect(item["lane"] as? String == "modal")
            #expect(item["priority"] as? Int == 500)

            // When the app asks for it in French
            let response = try app.next(locale: "fr")
            // Then it comes as written, named after its ticket, its language undetermined
            expectQueueAnswer(response, status: 200)
            #expect(response.header("Content-Language") == "und")
            let delivery = try response.decode(DeliveryBody.self)
            #expect(delivery.ticket == enqueued.ticket)
            #expect(delivery.spec.id == "adhoc/\(enqueued.ticket)")
            #expect(delivery.spec.locale == "und")
            #expect(delivery.spec.title == "Maintenance tonight")
            #expect(delivery.spec.actions?.map(\.id) == ["ok"])
            // And it is acknowledged with its own button ids
            expectQueueAnswer(try app.ack(enqueued.ticket, action: "ok"), status: 200)

            // And a HUD spec with a priority of its own goes to the hud lane
            let hud = try app.enqueue(#"{"spec":{"kind":"hud","state":"success","text":"Deployed"},"priority":950}"#)
            let hudDelivery = try app.delivered()
            #expect(hudDelivery.ticket == hud.ticket)
            #expect(hudDelivery.spec.lane == "hud")
        }
    }

    // MARK: Enqueue validation

    @Test(
        "a bad enqueue body is 422 with a pointer to each problem, and queues nothing",
        arguments: [
            (#"{"alert":"app/nope"}"#, ["/alert"], "unknown-alert"),
            (#"{"alert":"nope"}"#, ["/alert"], "unknown-alert"),
            (#"{"alert":"app/newMessages","params":{"sender":"Ana"}}"#, ["/params/count"], "missing-parameter"),
            (#"{"alert":"app/newMessages","params":{"count":"three","sender":"Ana"}}"#, ["/params/count"], "invalid-parameter"),
            (#"{"alert":"app/questionExit","params":{"colour":"red"}}"#, ["/params/colour"], nil),
            (#"{"spec":{"kind":"alert","title":"Hi"}}"#, ["/spec/actions"], "no-action"),
            (#"{"spec":{"kind":"alert","title":"Hi","actions":[{"id":"ok","label":"OK"}],"colour":"red"}}"#, ["/spec/colour"], nil),
            (#"{"spec":"hello"}"#, ["/spec"], nil),
            (#"{"alert":"app/questionExit","priority":5000}"#, ["/priority"], "out-of-range"),
            (#"{"alert":"app/questionExit","priority":-1}"#, ["/priority"], "out-of-range"),
            (#"{"alert":"app/questionExit","ttl":-1}"#, ["/ttl"], "out-of-range"),
            (#"{"alert":"app/questionExit","ttl":0}"#, ["/ttl"], "out-of-range"),
            (#"{"alert":"app/questionExit","ttl":2592001}"#, ["/ttl"], "out-of-range"),
            (#"{"alert":"app/questionExit","dedupeKey":""}"#, ["/dedupeKey"], nil),
            (#"{"alert":"app/questionExit","priority":"high"}"#, ["/priority"], nil),
            (#"{"alert":5}"#, ["/alert"], nil),
            (#"{"alert":"app/questionExit","when":"now"}"#, ["/when"], "unknown-field"),
            (#"{"alert":"app/questionExit","spec":{"kind":"hud","state":"success"}}"#, [""], "alert-or-spec"),
            (#"{}"#, [""], "alert-or-spec"),
            (#"{"alert":"app/nope","priority":5000,"ttl":-1}"#, ["/alert", "/priority", "/ttl"], nil),
        ] as [(String, [String], String?)])
    func badEnqueue(body: String, pointers: [String], code: String?) throws {
        try withLiveServer { port in
            let admin = try SessionClient(port: port, session: "s")
            let issues = try expectInvalidRequest(try admin.admin("POST", "/queue", json: body))
            #expect(issues.map(\.pointer).sorted() == pointers.sorted(), "\(issues)")
            if let code { #expect(issues.first?.code == code, "\(issues)") }
            #expect(issues.allSatisfy { !$0.message.isEmpty })
            #expect(try admin.list().items.isEmpty)
        }
    }

    @Test("an enqueue body that is not a JSON object is 400", arguments: ["[1]", "not json", "\"app/questionExit\"", ""])
    func malformedEnqueue(body: String) throws {
        try withLiveServer { port in
            let admin = try SessionClient(port: port, session: "s")
            let problem = try expectProblem(try admin.admin("POST", "/queue", json: body), status: 400)
            #expect(problem.type == "urn:alertd:problem:malformed-json")
        }
    }

    @Test("a body larger than the server accepts is 413 on enqueue, ack and hold")
    func bodyTooLarge() throws {
        try withLiveServer(maxBodySize: 1024) { port in
            let app = try SessionClient.open(port: port, session: "s")
            let padding = String(repeating: "x", count: 2048)
            for (method, path, bearer) in [
                ("POST", "/queue", app.adminToken), ("POST", "/queue/AAAAAAAAAAAAAAAAAAAAAA/ack", app.token), ("PUT", "/hold", app.token),
            ] {
                let client = try SessionClient(port: port, session: "s")
                let response = try client.call(method, path, bearer: bearer, json: #"{"alert":"\#(padding)"}"#)
                #expect(try expectProblem(response, status: 413).type == "urn:alertd:problem:body-too-large", "\(method) \(path)")
                #expect(response.header("Cache-Control") == "no-store", "\(method) \(path)")
            }
        }
    }

    @Test("a dedupeKey makes different alerts one, and frees once the item is done")
    func dedupeKey() throws {
        try withLiveServer { port in
            let app = try SessionClient.open(port: port, session: "s")
            let first = try app.enqueue(#"{"alert":"app/saved","dedupeKey":"upload-7"}"#)
            let same = try app.admin("POST", "/queue", json: #"{"alert":"app/failed","dedupeKey":"upload-7"}"#)
            expectQueueAnswer(same, status: 200)
            #expect(try same.decode(EnqueuedBody.self).ticket == first.ticket)
            // Once delivered and acknowledged, the key may be queued again
            #expect(try app.delivered().ticket == first.ticket)
            expectQueueAnswer(try app.ack(first.ticket), status: 200)
            let later = try app.enqueue(#"{"alert":"app/failed","dedupeKey":"upload-7"}"#)
            #expect(later.ticket != first.ticket)
        }
    }

    @Test("past the session's limit of live items, enqueue is 429 queue-full; duplicates are still 200")
    func queueFull() throws {
        try withLiveServer(settings: QueueSettings(maxQueueLength: 2)) { port in
            let app = try SessionClient.open(port: port, session: "s")
            let first = try app.enqueue(#"{"alert":"app/questionExit"}"#)
            _ = try app.enqueue(#"{"alert":"app/answerExit"}"#)
            let refused = try app.admin("POST", "/queue", json: #"{"alert":"app/logoutConfirm"}"#)
            #expect(try expectProblem(refused, status: 429).type == "urn:alertd:problem:queue-full")
            #expect(refused.header("Cache-Control") == "no-store")
            let duplicate = try app.admin("POST", "/queue", json: #"{"alert":"app/questionExit"}"#)
            expectQueueAnswer(duplicate, status: 200)
            // And another session has its own limit
            let other = try SessionClient(port: port, session: "t")
            _ = try other.enqueue(#"{"alert":"app/logoutConfirm"}"#)
            // And once one is done there is room again
            #expect(try app.delivered().ticket == first.ticket)
            expectQueueAnswer(try app.ack(first.ticket), status: 200)
            _ = try app.enqueue(#"{"alert":"app/logoutConfirm"}"#)
        }
    }

    @Test("an unacknowledged item comes back when its lease ends, then is dead-lettered")
    func leaseAndDeadLetter() throws {
        try withLiveServer(settings: QueueSettings(leaseDuration: 1, maxDeliveries: 2)) { port in
            let app = try SessionClient.open(port: port, session: "crashy")
            let item = try app.enqueue(#"{"alert":"app/questionExit"}"#)
            #expect(try app.delivered().deliveries == 1)
            #expect(try app.next().status == 204)
            Thread.sleep(forTimeInterval: 1.2)
            let again = try app.delivered()
            #expect(again.ticket == item.ticket)
            #expect(again.deliveries == 2)
            Thread.sleep(forTimeInterval: 1.2)
            #expect(try app.next().status == 204)
            let listed = try app.list().items
            #expect(listed.map(\.state) == ["dead"])
            #expect(listed.first?.deliveries == 2)
            _ = try expectProblem(try app.ack(item.ticket), status: 410)
        }
    }

    @Test("HEAD …/next does not deliver (a HEAD request must not change the queue)")
    func headDoesNotDeliver() throws {
        // HEAD may not ride on this GET: it would lease the item and throw its body away, the
        // app never seeing it and its modal lane blocked until the lease ends.
        try withLiveServer { port in
            let app = try SessionClient.open(port: port, session: "s")
            let item = try app.enqueue(#"{"alert":"app/questionExit"}"#)
            _ = try app.client.request("HEAD", "/v1/sessions/s/next", headers: [("Authorization", "Bearer \(app.token)")])
            let listed = try app.list().items
            #expect(listed.map(\.state) == ["queued"])
            #expect(listed.first?.deliveries == 0)
            let response = try app.next()
            #expect(response.status == 200)
            #expect((try? response.decode(DeliveryBody.self))?.ticket == item.ticket)
        }
    }

    // MARK: Tokens and session ids

    @Test("POST …/token issues a token for the session with the lifetime asked for")
    func tokens() throws {
        try withLiveServer { port in
            let admin = try SessionClient(port: port, session: "user-1")
            for (body, lifetime) in [(nil, 86_400.0), (#"{"ttl":3600}"#, 3600), (#"{"ttl":60}"#, 60), (#"{"ttl":7776000}"#, 7_776_000)]
                as [(String?, Double)]
            {
                let response = try admin.admin("POST", "/token", json: body)
                expectQueueAnswer(response, status: 201)
                let issued = try response.decode(IssuedTokenBody.self)
                #expect(issued.session == "user-1")
                #expect(issued.token.hasPrefix("v1."))
                let expiry = try #require(apiDate(issued.expiresAt))
                #expect(abs(expiry.timeIntervalSinceNow - lifetime) <= 3, "\(body ?? "no body"): \(issued.expiresAt)")
                // And it opens the session
                #expect(try admin.call("GET", "/queue", bearer: issued.token).status == 200)
            }
            for body in [#"{"ttl":59}"#, #"{"ttl":7776001}"#, #"{"ttl":"3600"}"#, #"{"lifetime":3600}"#] {
                _ = try expectInvalidRequest(try admin.admin("POST", "/token", json: body))
            }
            _ = try expectProblem(try admin.admin("POST", "/token", json: "[3600]"), status: 400)
        }
    }

    @Test(
        "session ids are 1 to 128 of letters, digits, '.', '_', ':' and '-'",
        arguments: [
            ("user-42:iphone.v2_x", 201), (String(repeating: "a", count: 128), 201), ("A", 201),
            (String(repeating: "a", count: 129), 400), ("a!b", 400), ("a%20b", 400), ("caf%C3%A9", 400), ("a~b", 400),
        ])
    func sessionIds(session: String, status: Int) throws {
        try withLiveServer { port in
            let admin = try SessionClient(port: port, session: session)
            let response = try admin.admin("POST", "/token")
            if status == 201 {
                expectQueueAnswer(response, status: 201)
            } else {
                #expect(try expectProblem(response, status: 400).type == "urn:alertd:problem:bad-request")
                _ = try expectProblem(try admin.admin("POST", "/queue", json: #"{"alert":"app/saved"}"#), status: 400)
                _ = try expectProblem(try admin.admin("GET", "/queue"), status: 400)
            }
        }
    }

    // MARK: The document

    @Test("every kind of queue answer matches its schema in openapi.yaml")
    func answersMatchTheDocument() throws {
        var answers: [String: [(String, [UInt8])]] = [:]
        func record(_ schema: String, _ name: String, _ response: RawHTTPResponse) {
            answers[schema, default: []].append((name, response.body))
        }
        try withLiveServer { port in
            let s = try SessionClient(port: port, session: "doc")
            let issued = try s.admin("POST", "/token", json: #"{"ttl":600}"#)
            record("IssuedToken", "token", issued)
            s.token = try issued.decode(IssuedTokenBody.self).token

            let enqueues = [
                #"{"alert":"onboarding/setup"}"#, #"{"alert":"app/newMessages","params":{"count":2,"sender":"Ana"},"ttl":60}"#,
                #"{"spec":\#(adHocAlert),"dedupeKey":"maintenance"}"#, #"{"alert":"app/welcomeToast","params":{"name":"Ana"}}"#,
                #"{"alert":"app/uploadProgress","params":{"percent":10}}"#,
            ]
            for (index, body) in enqueues.enumerated() {
                record("Enqueued", "enqueue \(index)", try s.admin("POST", "/queue", json: body))
            }
            record("Enqueued", "duplicate", try s.admin("POST", "/queue", json: enqueues[0]))
            record("QueueList", "list", try s.admin("GET", "/queue"))

            // One of each lane: the HUD (900), the card (800), the toast
            var byKind: [String: String] = [:]
            for locale in ["ar", "zh-Hant", "en"] {
                let response = try s.next(locale: locale)
                record("Delivery", "next \(locale)", response)
                let delivery = try response.decode(DeliveryBody.self)
                byKind[delivery.spec.kind] = delivery.ticket
            }
            #expect(Set(byKind.keys) == ["hud", "card", "toast"])
            record("QueueList", "list presenting", try s.app("GET", "/queue"))
            record("Acknowledged", "ack chained", try s.ack(byKind["card"] ?? "", action: "done.alternative"))
            record("Acknowledged", "ack", try s.ack(byKind["toast"] ?? ""))
            record("InvalidRequestProblem", "bad action", try s.ack(byKind["hud"] ?? "", action: "nope"))
            let chained = try s.next(locale: "ru")
            record("Delivery", "next chained", chained)
            record("Acknowledged", "ack action", try s.ack(try chained.decode(DeliveryBody.self).ticket, action: "redeem"))
            let adHoc = try s.next()
            record("Delivery", "next ad-hoc", adHoc)
            #expect(try adHoc.decode(DeliveryBody.self).spec.id.hasPrefix("adhoc/"))
            record("Hold", "hold", try s.app("PUT", "/hold", json: #"{"seconds":10}"#))
            record("HoldReleased", "release", try s.app("DELETE", "/hold"))
            record("Cancelled", "cancel one", try s.admin("DELETE", "/queue/\(try adHoc.decode(DeliveryBody.self).ticket)"))
            record("Cancelled", "cancel all", try s.admin("DELETE", "/queue"))

            record("InvalidRequestProblem", "bad enqueue", try s.admin("POST", "/queue", json: #"{"alert":"app/nope","ttl":-1}"#))
            record("Problem", "unknown ticket", try s.ack((byKind["hud"] ?? "") + "x"))
            record("Problem", "unauthorized", try s.call("GET", "/next", bearer: nil))
        }
        for (schema, bodies) in answers.sorted(by: { $0.key < $1.key }) {
            let failures = try DocumentSchema.failures(of: bodies, against: schema)
            for (name, errors) in failures.sorted(by: { $0.key < $1.key }) {
                Issue.record("\(name) fails \(schema): \(errors)")
            }
        }
    }

    @Test("the request schemas in openapi.yaml take what the server takes and refuse what it refuses")
    func requestsMatchTheDocument() throws {
        func named(_ bodies: [String]) -> [(String, [UInt8])] { bodies.map { ($0, Array($0.utf8)) } }
        let accepted: [String: [String]] = [
            "EnqueueRequest": [
                #"{"alert":"app/questionExit"}"#, #"{"alert":"app/newMessages","params":{"count":2,"sender":"Ana"},"ttl":60,"priority":0}"#,
                #"{"spec":\#(adHocAlert),"dedupeKey":"maintenance","priority":1000,"ttl":2592000}"#,
                #"{"spec":{"kind":"hud","state":"success"},"ttl":0.5}"#,
            ],
            "TokenRequest": [#"{}"#, #"{"ttl":60}"#, #"{"ttl":7776000}"#],
            "HoldRequest": [#"{}"#, #"{"seconds":0.5}"#, #"{"seconds":600}"#],
            "AckRequest": [#"{}"#, #"{"action":"done.alternative"}"#],
        ]
        let refused: [String: [String]] = [
            "EnqueueRequest": [
                #"{}"#, #"{"alert":"app/questionExit","spec":{"kind":"hud","state":"success"}}"#,
                #"{"alert":"app/questionExit","priority":5000}"#, #"{"alert":"app/questionExit","ttl":-1}"#,
                #"{"alert":"app/questionExit","ttl":0}"#, #"{"alert":"app/questionExit","dedupeKey":""}"#,
                #"{"alert":"app/questionExit","when":"now"}"#, #"{"spec":{"kind":"hud","state":"success"},"params":{}}"#,
                #"{"alert":"questionExit"}"#, #"{"spec":{"kind":"alert","title":"Hi"}}"#,
            ],
            "TokenRequest": [#"{"ttl":59}"#, #"{"ttl":7776001}"#, #"{"lifetime":60}"#],
            "HoldRequest": [#"{"seconds":0}"#, #"{"seconds":601}"#, #"{"secs":1}"#],
            "AckRequest": [#"{"action":1}"#, #"{"button":"ok"}"#],
        ]
        // The server agrees (AckRequest depends on the alert acknowledged, checked elsewhere)
        try withLiveServer { port in
            let paths = ["EnqueueRequest": "/queue", "TokenRequest": "/token", "HoldRequest": "/hold"]
            for (schema, path) in paths.sorted(by: { $0.key < $1.key }) {
                for (index, body) in (accepted[schema] ?? []).enumerated() {
                    let s = try SessionClient.open(port: port, session: "\(schema)-\(index)")
                    let response = path == "/hold" ? try s.app("PUT", path, json: body) : try s.admin("POST", path, json: body)
                    #expect((200..<300).contains(response.status), "\(schema) \(body): \(response.status) \(response.text)")
                }
                for body in refused[schema] ?? [] {
                    let s = try SessionClient.open(port: port, session: "refused")
                    let response = path == "/hold" ? try s.app("PUT", path, json: body) : try s.admin("POST", path, json: body)
                    #expect(response.status == 422, "\(schema) \(body): \(response.status) \(response.text)")
                }
            }
        }

        for (schema, bodies) in accepted.sorted(by: { $0.key < $1.key }) {
            for (name, errors) in try DocumentSchema.failures(of: named(bodies), against: schema).sorted(by: { $0.key < $1.key }) {
                Issue.record("\(name) fails \(schema): \(errors)")
            }
        }
        for (schema, bodies) in refused.sorted(by: { $0.key < $1.key }) {
            let failing = try DocumentSchema.failures(of: named(bodies), against: schema)
            for body in bodies where failing[body] == nil {
                Issue.record("\(body) passes \(schema)")
            }
        }
    }
}

/// The `spec` of a delivery, decoded as the shared model (what an iOS app decodes).
struct DeliveredSpec: Decodable {
    var spec: AlertSpec
}

/// Checks JSON bodies against a schema of openapi.yaml with scripts/check_schema.py (Python's
/// `jsonschema`, Draft 2020-12), the checker SchemaTests uses: `ALERTD_TEST_PYTHON`, else
/// .build/venv (`make test` makes it).
enum DocumentSchema {
    struct Report: Decodable {
        struct Failure: Decodable {
            var pointer: String
            var message: String
        }
        var valid: Bool
        var errors: [Failure]
    }

    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The bodies that fail `#/components/schemas/<schema>`, by name, with the checker's errors.
    static func failures(of bodies: [(String, [UInt8])], against schema: String) throws -> [String: String] {
        let environment = ProcessInfo.processInfo.environment["ALERTD_TEST_PYTHON"] ?? ""
        let python = environment.isEmpty ? root.appendingPathComponent(".build/venv/bin/python") : URL(fileURLWithPath: environment)
        try #require(
            FileManager.default.isExecutableFile(atPath: python.path),
            "No Python at \(python.path): run `make test` (or set ALERTD_TEST_PYTHON to a Python with jsonschema and pyyaml).")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("alertd-doc-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }

        var input: [UInt8] = Array("{".utf8)
        for (index, (name, body)) in bodies.enumerated() {
            if index > 0 { input += Array(",".utf8) }
            input += Array(try JSONEncoder().encode(name)) + Array(":".utf8) + body
        }
        input += Array("}".utf8)
        let bodiesFile = folder.appendingPathComponent("bodies.json")
        let reportFile = folder.appendingPathComponent("report.json")
        try Data(input).write(to: bodiesFile)

        let process = Process()
        process.executableURL = python
        process.arguments = [
            root.appendingPathComponent("scripts/check_schema.py").path,
            root.appendingPathComponent("Sources/AlertServer/Resources/openapi.yaml").path,
            bodiesFile.path, "--schema", schema, "--report", reportFile.path,
        ]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard [0, 1].contains(process.terminationStatus), let data = try? Data(contentsOf: reportFile) else {
            throw RawHTTPError.malformed("check_schema.py could not check against \(schema) (exit \(process.terminationStatus)): \(printed)")
        }
        let reports = try JSONDecoder().decode([String: Report].self, from: data)
        try #require(reports.count == bodies.count, "\(reports.count) reports for \(bodies.count) bodies")
        return reports.filter { !$0.value.valid }.mapValues { report in
            report.errors.map { "\($0.pointer.isEmpty ? "/" : $0.pointer): \($0.message)" }.joined(separator: "; ")
        }
    }
}
