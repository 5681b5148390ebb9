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
@testable import AlertdTestSupport
@testable import HTTPTestSupport

// The session queue API of DESIGN.md ("HTTP API", "Queue semantics"), checked over real sockets
// against the real server: MicroHTTP on libmicrohttpd serving AlertService with the built-in
// catalogs and an in-memory SQLite queue store, on an ephemeral port.

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
            // exactly the same (refreshed, by default, to what it was), and newMessages from the
            // same sender whatever the count (its own key), kept as it was when asked to
            for (body, ticket, position, refreshed) in [
                (#"{"alert":"app/pushPermission"}"#, push.ticket, 3, true),
                (#"{"alert":"app/newMessages","params":{"count":7,"sender":"Ana"},"onDuplicate":"keep"}"#, messages.ticket, 2, false),
            ] {
                let again = try s.admin("POST", "/queue", json: body)
                expectQueueAnswer(again, status: 200)
                #expect(
                    try again.decode(EnqueuedBody.self)
                        == EnqueuedBody(ticket: ticket, position: position, duplicate: true, refreshed: refreshed))
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
}
