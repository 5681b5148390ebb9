import AlertQueue
import Foundation
import Testing
@testable import AlertdTestSupport
@testable import HTTPTestSupport

// Dedupe over real sockets: a duplicate enqueue refreshes the queued item (`onDuplicate`).

@Suite("Live server: a duplicate enqueue refreshes or keeps the live item")
struct LiveDedupeTests {
    @Test("a duplicate refreshes the queued item by default: newest parameters, priority and TTL, the same ticket")
    func refreshByDefault() throws {
        try withLiveServer { port in
            // Given newMessages from Ana queued with a count of 3
            let app = try SessionClient.open(port: port, session: "inbox")
            let first = try app.enqueue(#"{"alert":"app/newMessages","params":{"count":3,"sender":"Ana"},"ttl":600}"#)
            let before = try #require(try app.list().items.first)
            // When the backend queues it again with a count of 9, a higher priority and a shorter TTL
            let again = try app.admin(
                "POST", "/queue", json: #"{"alert":"app/newMessages","params":{"count":9,"sender":"Ana"},"priority":800,"ttl":60}"#)
            // Then it is the same item, refreshed
            expectQueueAnswer(again, status: 200)
            #expect(try again.decode(EnqueuedBody.self) == EnqueuedBody(ticket: first.ticket, position: 1, duplicate: true, refreshed: true))
            let listed = try #require(try app.list().items.first)
            #expect(listed.ticket == first.ticket)
            #expect(listed.priority == 800)
            #expect(listed.enqueuedAt == before.enqueuedAt)
            let expiresAt = try #require(listed.expiresAt.flatMap(apiDate))
            #expect(abs(expiresAt.timeIntervalSinceNow - 60) <= 5, "the TTL counts from the refresh")
            // And the app is shown the refreshed one
            let delivered = try app.next(locale: "en")
            expectQueueAnswer(delivered, status: 200)
            let spec = try #require(try delivered.jsonObject()?["spec"] as? [String: Any])
            #expect((spec["message"] as? String)?.contains("9") == true, "\(spec)")
            #expect(spec["priority"] as? Int == 800)
        }
    }

    @Test("onDuplicate keep leaves the queued item as it was; a presenting one is kept whatever is asked")
    func keepAndPresenting() throws {
        try withLiveServer { port in
            // Given
            let app = try SessionClient.open(port: port, session: "inbox")
            let first = try app.enqueue(#"{"alert":"app/newMessages","params":{"count":3,"sender":"Ana"}}"#)
            // When kept
            let kept = try app.admin(
                "POST", "/queue", json: #"{"alert":"app/newMessages","params":{"count":9,"sender":"Ana"},"priority":800,"onDuplicate":"keep"}"#)
            // Then nothing changed
            expectQueueAnswer(kept, status: 200)
            #expect(try kept.decode(EnqueuedBody.self) == EnqueuedBody(ticket: first.ticket, position: 1, duplicate: true, refreshed: false))
            #expect(try app.list().items.map(\.priority) == [400])
            // When it is presenting and asked to refresh
            #expect(try app.delivered().ticket == first.ticket)
            let presenting = try app.admin(
                "POST", "/queue", json: #"{"alert":"app/newMessages","params":{"count":12,"sender":"Ana"},"onDuplicate":"refresh"}"#)
            // Then it is left alone
            expectQueueAnswer(presenting, status: 200)
            #expect(try presenting.decode(EnqueuedBody.self) == EnqueuedBody(ticket: first.ticket, position: 0, duplicate: true, refreshed: false))
            let listed = try #require(try app.list().items.first)
            #expect(listed.state == "presenting")
            #expect(listed.priority == 400)
        }
    }

    @Test(
        "an onDuplicate other than refresh or keep is 422 at /onDuplicate, and queues nothing",
        arguments: [#""replace""#, #""Refresh""#, "true", "1", "{}"])
    func badOnDuplicate(value: String) throws {
        try withLiveServer { port in
            let admin = try SessionClient(port: port, session: "s")
            let body = #"{"alert":"app/questionExit","onDuplicate":"# + value + "}"
            let issues = try expectInvalidRequest(try admin.admin("POST", "/queue", json: body))
            #expect(issues.map(\.pointer) == ["/onDuplicate"], "\(issues)")
            #expect(issues.allSatisfy { !$0.message.isEmpty })
            #expect(try admin.list().items.isEmpty)
        }
    }
}
