import Synchronization
import AlertClient
import AlertSpec
import Foundation
import TestExecutors
import Testing
@testable import AlertdTestSupport
@testable import HTTPTestSupport

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// The AlertClient library (URLSession) against the built `alertd serve`, as an app would use it.

@Suite("AlertClient against the live alertd", .ownThread)
struct AlertClientLiveTests {
    private let adminToken = "admin-\(UUID().uuidString)"

    /// `alertd serve --store memory` on a free port of 127.0.0.1, and its base URL.
    private func serve() throws -> (AlertdProcess, URL) {
        let (server, port) = try AlertdProcess.serving(["--store", "memory", "--admin-token", adminToken])
        return (server, try #require(URL(string: "http://127.0.0.1:\(port)")))
    }

    private func makeClient(_ base: URL, cacheSize: Int = 64, token: String = "") -> AlertClient {
        AlertClient(baseURL: base, cacheSize: cacheSize) { _ in token }
    }

    @Test("render asks again with If-None-Match; the 304 returns the spec decoded the first time")
    func renderRevalidates() async throws {
        let (server, base) = try serve()
        defer { server.kill() }
        let client = makeClient(base)

        // Given a first rendering of app/questionExit in zh-Hans, downloaded and decoded
        let first = try await client.render(catalog: "app", alert: "questionExit", locale: "zh-Hans")
        #expect(first.id == "app/questionExit")
        #expect(first.locale == "zh-Hans")
        let afterFirst = client.statistics
        #expect(afterFirst.requests == 1)
        #expect(afterFirst.notModified == 0)
        #expect(afterFirst.specsDecoded == 1)
        #expect(afterFirst.cachedRenders == 1)

        // When the same rendering is asked for again
        let second = try await client.render(catalog: "app", alert: "questionExit", locale: "zh-Hans")

        // Then the server answered 304 (counted from the status URLSession handed over), and the
        // same spec came back without a second decoding
        let afterSecond = client.statistics
        #expect(afterSecond.requests == 2)
        #expect(afterSecond.notModified == 1)
        #expect(afterSecond.specsDecoded == 1)
        #expect(second == first)
    }

    @Test("the render cache is per URL, bounded, and parameters reach the server as given")
    func renderCacheBounds() async throws {
        let (server, base) = try serve()
        defer { server.kill() }

        // Given a client that keeps one rendering
        let client = makeClient(base, cacheSize: 1)

        // When it renders a second alert, then the first again
        let exit = try await client.render(catalog: "app", alert: "questionExit", locale: "fr")
        let logout = try await client.render(catalog: "app", alert: "logoutConfirm", locale: "fr")
        let exitAgain = try await client.render(catalog: "app", alert: "questionExit", locale: "fr")

        // Then the first was evicted: downloaded and decoded again, no 304
        #expect(exit.id == "app/questionExit" && logout.id == "app/logoutConfirm")
        #expect(exitAgain == exit)
        var statistics = client.statistics
        #expect(statistics.notModified == 0)
        #expect(statistics.specsDecoded == 3)
        #expect(statistics.cachedRenders == 1)

        // And another locale is another URL, cached on its own
        let english = try await client.render(catalog: "app", alert: "questionExit", locale: "en")
        #expect(english.locale == "en")
        #expect(english != exit)

        // And typed parameters arrive intact, `+` and `&` included
        let messages = try await client.render(
            catalog: "app", alert: "newMessages", parameters: ["count": .integer(3), "sender": .string("Ana+Li & Co")], locale: "en")
        guard case .alert(let dialog) = messages.body else {
            Issue.record("newMessages is not an alert: \(messages.kind)")
            return
        }
        #expect(dialog.title == "New messages from Ana+Li & Co")
        statistics = client.statistics
        #expect(statistics.notModified == 0)
        #expect(statistics.specsDecoded == 5)
    }

    @Test("next delivers the queued alert, ack with a next action chains, and an empty queue answers nil")
    func nextAndAck() async throws {
        let (server, base) = try serve()
        defer { server.kill() }

        // Given a session token from the admin API and a card flow queued by the backend
        let admin = try SessionClient.open(port: Int(base.port ?? 0), session: "client-flow", adminToken: adminToken)
        let setup = try admin.enqueue(#"{"alert":"onboarding/setup"}"#)
        let client = makeClient(base, token: admin.token)

        // When the app polls
        let delivery = try #require(try await client.next(session: "client-flow", wait: .seconds(5), locale: "de"))

        // Then it gets the card in its language
        #expect(delivery.ticket == setup.ticket)
        #expect(delivery.spec.id == "onboarding/setup")
        #expect(delivery.spec.kind == .card)
        #expect(delivery.spec.locale == "de")
        #expect(delivery.deliveries == 1)

        // When the user picks the last page's alternative button, whose action is a `next`
        let done = try await client.ack(session: "client-flow", ticket: delivery.ticket, action: "done.alternative")

        // Then the chained alert is queued first and delivered next
        #expect(done.ticket == delivery.ticket)
        let chained = try #require(done.chained, "no chained ticket")
        let redeem = try #require(try await client.next(session: "client-flow", wait: .seconds(5)))
        #expect(redeem.ticket == chained)
        #expect(redeem.spec.id == "app/redeemInvite")

        // And an action without `next`, with the code the user typed, chains nothing, after which
        // a short poll finds nothing
        let redeemed = try await client.ack(session: "client-flow", ticket: redeem.ticket, action: "redeem", input: "Q7-KD92")
        #expect(redeemed.chained == nil)
        #expect(try await client.next(session: "client-flow", wait: .seconds(1)) == nil)
        #expect(client.statistics.specsDecoded == 2)
    }

    @Test("poll hands out a withdraw of the alert shown when it is recalled; next passes it to its handler")
    func pollWithdraw() async throws {
        let (server, base) = try serve()
        defer { server.kill() }
        let admin = try SessionClient.open(port: Int(base.port ?? 0), session: "client-withdraw", adminToken: adminToken)
        let client = makeClient(base, token: admin.token)

        // Given the app shows an alert, which the backend then recalls
        let shown = try admin.enqueue(#"{"alert":"app/questionExit"}"#)
        guard case .show(let delivery)? = try await client.poll(session: "client-withdraw", wait: .seconds(5)) else {
            Issue.record("no alert to show")
            return
        }
        #expect(delivery.ticket == shown.ticket)
        let recall = try RawHTTPClient(port: Int(base.port ?? 0)).request(
            "POST", "/v1/alerts/app/questionExit/recall", headers: [("Authorization", "Bearer \(adminToken)")])
        #expect(recall.status == 200)

        // Then the next poll says to take it off the screen, once
        #expect(try await client.poll(session: "client-withdraw", wait: .seconds(5)) == .withdraw(ticket: shown.ticket))
        #expect(try await client.poll(session: "client-withdraw", wait: .zero) == nil)

        // And `next` hands a withdraw to its handler and goes on to the alert after it
        let again = try admin.enqueue(#"{"alert":"app/questionExit"}"#)
        _ = try #require(try await client.next(session: "client-withdraw", wait: .seconds(5)))
        _ = try RawHTTPClient(port: Int(base.port ?? 0)).request(
            "POST", "/v1/alerts/app/questionExit/recall", headers: [("Authorization", "Bearer \(adminToken)")])
        let following = try admin.enqueue(#"{"alert":"app/redeemInvite"}"#)
        let withdrawn = Mutex<[String]>([])
        let delivered = try await client.next(session: "client-withdraw", wait: .seconds(5)) { ticket in withdrawn.withLock { $0.append(ticket) } }
        #expect(withdrawn.withLock { $0 } == [again.ticket])
        #expect(delivered?.ticket == following.ticket)
    }

    @Test("a bad token is a 401 AlertClientError with the server's problem; acking a cancelled ticket is a 410")
    func errors() async throws {
        let (server, base) = try serve()
        defer { server.kill() }

        // Given a client whose token provider hands out a token the server never signed
        let forged = makeClient(base, token: "v1.Y2xpZW50LWVycm9ycw.9999999999.AAAA")

        // When it polls
        // Then the error carries the status and the problem+json
        let unauthorized = await #expect(throws: AlertClientError.self) {
            try await forged.next(session: "client-errors", wait: .zero)
        }
        #expect(unauthorized?.code == .unauthorized)
        #expect(unauthorized?.status == 401)
        #expect(unauthorized?.problem?.status == 401)
        #expect(unauthorized?.problem?.title == "Unauthorized")
        #expect(unauthorized?.problem?.type == "urn:alertd:problem:unauthorized")
        #expect(unauthorized?.problem?.detail.isEmpty == false)

        // Given an alert delivered to the app, then cancelled by the backend while it shows
        let admin = try SessionClient.open(port: Int(base.port ?? 0), session: "client-errors", adminToken: adminToken)
        let client = makeClient(base, token: admin.token)
        let queued = try admin.enqueue(#"{"alert":"app/logoutConfirm"}"#)
        let delivery = try #require(try await client.next(session: "client-errors", wait: .seconds(5)))
        #expect(delivery.ticket == queued.ticket)
        expectQueueAnswer(try admin.admin("DELETE", "/queue/\(queued.ticket)"), status: 200)

        // When the app acknowledges it
        // Then the ticket is gone (410), with the problem
        let gone = await #expect(throws: AlertClientError.self) {
            try await client.ack(session: "client-errors", ticket: delivery.ticket, action: "cancel")
        }
        #expect(gone?.code == .ticketGone)
        #expect(gone?.status == 410)
        #expect(gone?.problem?.type == "urn:alertd:problem:ticket-gone")
        #expect(gone?.problem?.title == "Gone")

        // And an unknown alert is a 404 with its problem, not a transport error
        let missing = await #expect(throws: AlertClientError.self) {
            try await client.render(catalog: "app", alert: "noSuchAlert")
        }
        #expect(missing?.code == .notFound)
        #expect(missing?.problem?.status == 404)
    }

    @Test("cancelling the task of a waiting next cancels the request: CancellationError, not a late nil")
    func cancelledLongPoll() async throws {
        let (server, base) = try serve()
        defer { server.kill() }
        let admin = try SessionClient.open(port: Int(base.port ?? 0), session: "client-cancel", adminToken: adminToken)
        let client = makeClient(base, token: admin.token)

        // Given a long-poll that would wait 20 s for an empty queue
        // (on a thread of its own, as the test is: on the shared pool, behind the blocking live
        // tests, it once had not started when the test stopped waiting for it)
        let poll = Task(executorPreference: OwnThread()) { try await client.next(session: "client-cancel", wait: .seconds(20)) }
        // and the server has it waiting
        let port = Int(base.port ?? 0)
        #expect(eventually(within: .seconds(10)) { waitingPolls(port: port) == 1 })

        // When its task is cancelled
        poll.cancel()

        // Then it ends with CancellationError (had the request gone on, it would end in 20 s with nil)
        let outcome = await poll.result
        #expect(throws: CancellationError.self) { try outcome.get() }
        #expect(client.statistics.requests == 1)
    }
}
