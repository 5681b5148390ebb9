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
import TestClocks
import Testing
@testable import HTTPTestSupport
@testable import AlertdTestSupport

// The session queue API of DESIGN.md ("HTTP API", "Queue semantics"), checked over real sockets
// against the real server: MicroHTTP on libmicrohttpd serving AlertService with the built-in
// catalogs and an in-memory SQLite queue store, on an ephemeral port.

@Suite("Live server: long-polls and holds")
struct LiveLongPollTests {
    let registry: CatalogRegistry

    init() throws {
        registry = try CatalogRegistry.builtIn()
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

    @Test("an enqueue hands its item to the session's longest-waiting poll; another poll and a duplicate get nothing")
    func enqueueHandsItemToLongestWaitingPoll() throws {
        try withLiveService { port, service in
            // Given two polls of one session waiting, one after the other (the second for 5 s, which
            // it waits out)
            let app = try SessionClient.open(port: port, session: "two-polls", timeout: .seconds(15))
            var pollers: [SessionClient] = []
            for (waiting, wait) in [(1, 10), (2, 5)] {
                let poller = try SessionClient(port: port, session: "two-polls", timeout: .seconds(15))
                try poller.client.send(RawHTTPClient.requestBytes(
                    "GET", "/v1/sessions/two-polls/next?wait=\(wait)&locale=de", headers: [("Authorization", "Bearer \(app.token)")]))
                #expect(eventually { service.queue.polls.count == waiting }, "poll \(waiting) never waited")
                pollers.append(poller)
            }

            // When the backend enqueues a modal for the session
            let enqueued = try app.enqueue(#"{"alert":"app/logoutConfirm"}"#)

            // Then the first poll has it, rendered in its language, delivered once
            let response = try pollers[0].client.readResponse()
            expectQueueAnswer(response, status: 200)
            let delivery = try response.decode(DeliveryBody.self)
            #expect(delivery.ticket == enqueued.ticket)
            #expect(delivery.deliveries == 1)
            #expect(response.header("Content-Language") == "de")
            // And the queue lists it presenting; the second poll still waits
            let listed = try app.admin("GET", "/queue").decode(QueueListBody.self).items
            #expect(listed.map(\.ticket) == [enqueued.ticket])
            #expect(listed.map(\.state) == ["presenting"])
            #expect(eventually { service.queue.polls.count == 1 }, "the second poll stopped waiting")

            // When the same alert is enqueued again (a duplicate) while the second poll waits
            let duplicate = try app.admin("POST", "/queue", json: #"{"alert":"app/logoutConfirm"}"#)

            // Then it is the live item; the second poll gets nothing and answers 204 at its deadline
            #expect(duplicate.status == 200)
            let again = try duplicate.decode(EnqueuedBody.self)
            #expect(again.duplicate)
            #expect(!again.refreshed, "a presenting item is left as it is")
            #expect(again.ticket == enqueued.ticket)
            #expect(eventually { service.queue.polls.count == 1 }, "the second poll stopped waiting")
            let second = try pollers[1].client.readResponse()
            #expect(second.status == 204)
            #expect(try app.admin("GET", "/queue").decode(QueueListBody.self).items.map(\.deliveries) == [1])
        }
    }

    @Test("wait=1 with nothing queued answers 204 no-store at its deadline; wait=0 at once")
    func longPollTimesOut() throws {
        let clock = ManualClock()
        try withLiveService(clock: clock) { port, service in
            let app = try SessionClient.open(port: port, session: "idle")
            // When the app waits a second with nothing queued
            try app.client.send(
                RawHTTPClient.requestBytes("GET", "/v1/sessions/idle/next?wait=1", headers: [("Authorization", "Bearer \(app.token)")]))
            #expect(eventually { service.queue.polls.count == 1 }, "the poll never waited")
            // Then it waits until its deadline, and not past it
            clock.advance(by: 0.9)
            #expect(service.queue.polls.count == 1)
            clock.advance(by: 0.2)
            let response = try app.client.readResponse()
            // And it is 204, not to be cached
            #expect(response.status == 204)
            #expect(response.header("Cache-Control") == "no-store")
            #expect(response.body.isEmpty)

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
        let clock = ManualClock()
        try withLiveService(clock: clock) { port, service in
            let app = try SessionClient.open(port: port, session: "paying", timeout: .seconds(12))
            expectQueueAnswer(try app.app("PUT", "/hold", json: #"{"seconds":2}"#), status: 200)
            let modal = try app.enqueue(#"{"alert":"app/redeemInvite"}"#)
            // When the app long-polls past the end of its hold
            try app.client.send(
                RawHTTPClient.requestBytes("GET", "/v1/sessions/paying/next?wait=8", headers: [("Authorization", "Bearer \(app.token)")]))
            #expect(eventually { service.queue.polls.count == 1 }, "the poll never waited")
            // Then it still waits during the hold
            clock.advance(by: 1.9)
            #expect(service.queue.polls.count == 1)
            // And the modal arrives when the hold ends, not at the poll's deadline
            clock.advance(by: 0.2)
            let response = try app.client.readResponse()
            expectQueueAnswer(response, status: 200)
            #expect(try response.decode(DeliveryBody.self).ticket == modal.ticket)
        }
    }
}
