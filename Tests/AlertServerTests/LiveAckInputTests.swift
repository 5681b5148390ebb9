import AlertQueue
import AlertServer
import Foundation
import Logging
import Testing
@testable import AlertdTestSupport
@testable import HTTPTestSupport

// An ack that carries what the user typed (`input`), checked against the alert's input field,
// kept with the done item for the backend, and never logged.

/// An enqueue of an ad-hoc alert with the input field `field`.
private func withField(_ field: String) -> String {
    #"{"spec":{"kind":"alert","title":"Code","input":"# + field + #","actions":[{"id":"ok","label":"OK"}]}}"#
}

@Suite("Live server: an ack carries the input the user typed")
struct LiveAckInputTests {
    @Test("the input of an ack is kept with the done item, which the backend reads; an ack again keeps the first")
    func inputKept() throws {
        try withLiveServer { port in
            // Given an invite-code alert delivered
            let app = try SessionClient.open(port: port, session: "invite")
            let queued = try app.enqueue(#"{"alert":"app/redeemInvite"}"#)
            #expect(try app.delivered().ticket == queued.ticket)
            // When the user types a code and redeems
            let acked = try app.app("POST", "/queue/\(queued.ticket)/ack", json: #"{"action":"redeem","input":"Q7-KD92"}"#)
            // Then the ack is done, and the backend finds the code on the item
            expectQueueAnswer(acked, status: 200)
            #expect(try acked.decode(AcknowledgedBody.self).state == "done")
            let item = try app.admin("GET", "/queue/\(queued.ticket)")
            expectQueueAnswer(item, status: 200)
            let view = try #require(try item.jsonObject())
            #expect(view["state"] as? String == "done")
            #expect(view["input"] as? String == "Q7-KD92")
            #expect(view["ticket"] as? String == queued.ticket)
            // When acknowledged again with other input: nothing changes
            expectQueueAnswer(try app.app("POST", "/queue/\(queued.ticket)/ack", json: #"{"input":"other"}"#), status: 200)
            #expect(try app.admin("GET", "/queue/\(queued.ticket)").jsonObject()?["input"] as? String == "Q7-KD92")
            // And the app reads it too, another session's token does not; an unknown ticket is 404
            #expect(try app.app("GET", "/queue/\(queued.ticket)").jsonObject()?["input"] as? String == "Q7-KD92")
            let other = try SessionClient.open(port: port, session: "other")
            #expect(try app.call("GET", "/queue/\(queued.ticket)", bearer: other.token).status == 403)
            #expect(try expectProblem(try app.admin("GET", "/queue/\(queued.ticket)x"), status: 404).type == "urn:alertd:problem:unknown-ticket")
        }
    }

    @Test(
        "input that does not fit the alert's field is 422 at /input, and the item stays presenting",
        arguments: [
            (#"{"alert":"app/questionExit"}"#, "anything", "no-input-field"),
            (withField(#"{"secure":true}"#), "1234", "secure-input"),
            (withField(#"{"keyboard":"number"}"#), "12a", "invalid-input"),
            (withField(#"{"keyboard":"email"}"#), "ana@", "invalid-input"),
            (withField(#"{"keyboard":"url"}"#), "not a url", "invalid-input"),
            (withField(#"{"keyboard":"phone"}"#), "call me", "invalid-input"),
            (withField("{}"), String(repeating: "x", count: 1_001), "too-long"),
        ])
    func inputRefused(enqueue: String, input: String, code: String) throws {
        try withLiveServer { port in
            // Given
            let app = try SessionClient.open(port: port, session: "form")
            let ticket = try app.enqueue(enqueue).ticket
            #expect(try app.delivered().ticket == ticket)
            // When
            let body = String(decoding: try JSONSerialization.data(withJSONObject: ["input": input]), as: UTF8.self)
            let issues = try expectInvalidRequest(try app.app("POST", "/queue/\(ticket)/ack", json: body))
            // Then
            #expect(issues.map(\.pointer) == ["/input"], "\(issues)")
            #expect(issues.first?.code == code, "\(issues)")
            #expect(issues.allSatisfy { !$0.message.isEmpty && !$0.message.contains(input) }, "a problem never repeats the input")
            #expect(try app.list().items.map(\.state) == ["presenting"])
        }
    }

    @Test("a secure field's value is refused with a message that says where it belongs")
    func secureRefusedClearly() throws {
        try withLiveServer { port in
            let app = try SessionClient.open(port: port, session: "pin")
            let ticket = try app.enqueue(withField(#"{"secure":true,"keyboard":"number"}"#)).ticket
            _ = try app.delivered()
            let issues = try expectInvalidRequest(try app.app("POST", "/queue/\(ticket)/ack", json: #"{"input":"1234"}"#))
            #expect(issues.first?.message.contains("never reaches alertd") == true, "\(issues)")
            #expect(issues.first?.message.contains("your own backend") == true, "\(issues)")
        }
    }

    @Test(
        "input that fits its keyboard is taken",
        arguments: [
            (#"{"keyboard":"number"}"#, "0042"), (#"{"keyboard":"email"}"#, "ana@example.com"),
            (#"{"keyboard":"url"}"#, "https://example.com/a"), (#"{"keyboard":"phone"}"#, "+49 (30) 123-456"),
            (#"{}"#, "anything at all, ünïcödé"), (#"{"keyboard":"email"}"#, ""),
        ])
    func inputTaken(field: String, input: String) throws {
        try withLiveServer { port in
            let app = try SessionClient.open(port: port, session: "form")
            let ticket = try app.enqueue(withField(field)).ticket
            _ = try app.delivered()
            let body = String(decoding: try JSONSerialization.data(withJSONObject: ["action": "ok", "input": input]), as: UTF8.self)
            expectQueueAnswer(try app.app("POST", "/queue/\(ticket)/ack", json: body), status: 200)
            #expect(try app.admin("GET", "/queue/\(ticket)").jsonObject()?["input"] as? String == input)
        }
    }

    @Test("the input is never logged, at any level")
    func inputNeverLogged() throws {
        let logs = LogCollector()
        try withLiveService(logger: logs.logger(.json, level: .trace)) { port, _ in
            // Given
            let app = try SessionClient.open(port: port, session: "quiet")
            let ticket = try app.enqueue(#"{"alert":"app/redeemInvite"}"#).ticket
            _ = try app.delivered()
            // When an ack with input is refused, then taken
            _ = try app.app("POST", "/queue/\(ticket)/ack", json: #"{"action":"nope","input":"typed-secret-7f3a"}"#)
            let acked = try app.app("POST", "/queue/\(ticket)/ack", json: #"{"action":"redeem","input":"typed-secret-7f3a"}"#)
            #expect(acked.status == 200)
            _ = try app.admin("GET", "/queue/\(ticket)")
            let feed = try app.client.request("GET", "/v1/events", headers: [("Authorization", "Bearer \(app.adminToken)")])
            #expect(feed.text.contains("typed-secret-7f3a"))
            // Then the ack's and the feed's lines are written, and no line holds the input
            #expect(logs.line(containing: "/ack") != nil, "lines: \(logs.all)")
            #expect(logs.line(containing: "/v1/events") != nil, "lines: \(logs.all)")
            #expect(!logs.all.contains { $0.contains("typed-secret") }, "lines: \(logs.all)")
        }
    }
}
