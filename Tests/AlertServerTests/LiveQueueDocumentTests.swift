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
import TestExecutors
import Testing
@testable import HTTPTestSupport
@testable import AlertdTestSupport

// The session queue API of DESIGN.md ("HTTP API", "Queue semantics"), checked over real sockets
// against the real server: MicroHTTP on libmicrohttpd serving AlertService with the built-in
// catalogs and an in-memory SQLite queue store, on an ephemeral port.

@Suite("Live server: queue answers against openapi.yaml", .ownThread)
struct LiveQueueDocumentTests {
    let registry: CatalogRegistry

    init() throws {
        registry = try CatalogRegistry.builtIn()
    }

    // MARK: The document

    @Test("every kind of queue answer matches its schema in openapi.yaml")
    func answersMatchTheDocument() async throws {
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
                #"{"alert":"app/uploadProgress","params":{"percent":10}}"#, #"{"alert":"app/logoutConfirm","notBefore":3600}"#,
            ]
            for (index, body) in enqueues.enumerated() {
                record("Enqueued", "enqueue \(index)", try s.admin("POST", "/queue", json: body))
            }
            record("Enqueued", "duplicate", try s.admin("POST", "/queue", json: enqueues[0]))
            record("QueueList", "list", try s.admin("GET", "/queue"))
            record("Explanation", "explain queued", try s.admin("GET", "/explain"))

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
            record("Explanation", "explain presenting", try s.admin("GET", "/explain"))
            record("Acknowledged", "ack chained", try s.ack(byKind["card"] ?? "", action: "done.alternative"))
            record("Acknowledged", "ack", try s.ack(byKind["toast"] ?? ""))
            record("QueueItemView", "item done", try s.admin("GET", "/queue/\(byKind["toast"] ?? "")"))
            record("InvalidRequestProblem", "bad action", try s.ack(byKind["hud"] ?? "", action: "nope"))
            let chained = try s.next(locale: "ru")
            record("Delivery", "next chained", chained)
            record("Acknowledged", "ack action", try s.ack(try chained.decode(DeliveryBody.self).ticket, action: "redeem"))
            let adHoc = try s.next()
            record("Delivery", "next ad-hoc", adHoc)
            #expect(try adHoc.decode(DeliveryBody.self).spec.id.hasPrefix("adhoc/"))
            record("Hold", "hold", try s.app("PUT", "/hold", json: #"{"seconds":10}"#))
            record("Explanation", "explain held", try s.admin("GET", "/explain"))
            record("HoldReleased", "release", try s.app("DELETE", "/hold"))
            record("Cancelled", "cancel one", try s.admin("DELETE", "/queue/\(try adHoc.decode(DeliveryBody.self).ticket)"))
            record("Cancelled", "cancel all", try s.admin("DELETE", "/queue"))
            record("Explanation", "explain empty", try s.admin("GET", "/explain"))
            // The feed has every kind of event written above, an ad-hoc spec's (alert null) among them
            let admin = [("Authorization", "Bearer \(s.adminToken)")]
            let events = try s.client.request("GET", "/v1/events?limit=1000", headers: admin)
            record("EventPage", "events", events)
            let next = try #require(try events.jsonObject()?["next"] as? String)
            record("EventPage", "events empty", try s.client.request("GET", "/v1/events?after=\(next)", headers: admin))
            record("Problem", "events bad cursor", try s.client.request("GET", "/v1/events?after=x", headers: admin))
            record("TicketExplanation", "explain done ticket", try s.admin("GET", "/explain?ticket=\(byKind["toast"] ?? "")"))
            record("Problem", "explain unknown ticket", try s.admin("GET", "/explain?ticket=AAAAAAAAAAAAAAAAAAAAAA"))

            record("InvalidRequestProblem", "bad enqueue", try s.admin("POST", "/queue", json: #"{"alert":"app/nope","ttl":-1}"#))
            record("Problem", "unknown ticket", try s.ack((byKind["hud"] ?? "") + "x"))
            record("Problem", "unauthorized", try s.call("GET", "/next", bearer: nil))
        }
        for (schema, bodies) in answers.sorted(by: { $0.key < $1.key }) {
            let failures = try await DocumentSchema.failures(of: bodies, against: schema)
            for (name, errors) in failures.sorted(by: { $0.key < $1.key }) {
                Issue.record("\(name) fails \(schema): \(errors)")
            }
        }
    }

    @Test("the request schemas in openapi.yaml take what the server takes and refuse what it refuses")
    func requestsMatchTheDocument() async throws {
        func named(_ bodies: [String]) -> [(String, [UInt8])] { bodies.map { ($0, Array($0.utf8)) } }
        let accepted: [String: [String]] = [
            "EnqueueRequest": [
                #"{"alert":"app/questionExit"}"#, #"{"alert":"app/newMessages","params":{"count":2,"sender":"Ana"},"ttl":60,"priority":0}"#,
                #"{"spec":\#(adHocAlert),"dedupeKey":"maintenance","priority":1000,"ttl":2592000}"#,
                #"{"spec":{"kind":"hud","state":"success"},"ttl":0.5}"#,
                // null is a member left out
                #"{"alert":"app/questionExit","priority":null,"ttl":null,"dedupeKey":null,"params":null,"spec":null}"#,
                #"{"alert":null,"spec":{"kind":"hud","state":"success","text":null}}"#,
                #"{"alert":"app/answerExit","onDuplicate":"keep"}"#, #"{"alert":"app/logoutConfirm","onDuplicate":"refresh"}"#,
                #"{"alert":"app/saved","onDuplicate":null}"#,
                #"{"alert":"app/questionExit","notBefore":60}"#, #"{"alert":"app/answerExit","notBefore":"2020-01-01T09:00:00+01:00"}"#,
                #"{"alert":"app/logoutConfirm","notBefore":null}"#,
                #"{"alert":"app/questionExit","pacing":{"limits":[{"count":3,"period":"1d"},{"count":1,"period":3600,"scope":"user"}]}}"#,
                #"{"alert":"app/answerExit","pacing":{"once":{"scope":null},"minGap":{"duration":"90s","scope":"user"},"whenCapped":"drop"}}"#,
                #"{"spec":{"kind":"hud","state":"success"},"pacing":{"once":{},"limits":null,"whenCapped":null}}"#,
                #"{"alert":"app/saved","pacing":null}"#,
            ],
            "TokenRequest": [#"{}"#, #"{"ttl":60}"#, #"{"ttl":7776000}"#, #"{"ttl":null}"#],
            "HoldRequest": [#"{}"#, #"{"seconds":0.5}"#, #"{"seconds":600}"#, #"{"seconds":null}"#],
            "AckRequest": [#"{}"#, #"{"action":"done.alternative"}"#, #"{"action":null}"#, #"{"action":"redeem","input":"Q7"}"#, #"{"input":null}"#],
        ]
        let refused: [String: [String]] = [
            "EnqueueRequest": [
                #"{}"#, #"{"alert":"app/questionExit","spec":{"kind":"hud","state":"success"}}"#,
                #"{"alert":"app/questionExit","priority":5000}"#, #"{"alert":"app/questionExit","ttl":-1}"#,
                #"{"alert":"app/questionExit","ttl":0}"#, #"{"alert":"app/questionExit","dedupeKey":""}"#,
                #"{"alert":"app/questionExit","when":"now"}"#, #"{"spec":{"kind":"hud","state":"success"},"params":{}}"#,
                #"{"alert":"questionExit"}"#, #"{"spec":{"kind":"alert","title":"Hi"}}"#,
                #"{"alert":null,"spec":null}"#, #"{"alert":"app/questionExit","when":null}"#,
                #"{"spec":{"kind":null}}"#, #"{"alert":"app/questionExit","onDuplicate":"replace"}"#,
                #"{"alert":"app/questionExit","onDuplicate":true}"#,
                #"{"alert":"app/questionExit","notBefore":-1}"#, #"{"alert":"app/questionExit","notBefore":31622401}"#,
                #"{"alert":"app/questionExit","notBefore":true}"#, #"{"alert":"app/questionExit","notBefore":[60]}"#,
                #"{"alert":"app/questionExit","pacing":{"limits":[{"count":0,"period":"1d"}]}}"#,
                #"{"alert":"app/questionExit","pacing":{"limits":[{"count":1,"period":"0s"}]}}"#,
                #"{"alert":"app/questionExit","pacing":{"limits":[{"count":1}]}}"#,
                #"{"alert":"app/questionExit","pacing":{"once":{"scope":"device"}}}"#,
                #"{"alert":"app/questionExit","pacing":{"minGap":{}}}"#, #"{"alert":"app/questionExit","pacing":{"whenCapped":"later"}}"#,
                #"{"alert":"app/questionExit","pacing":{"every":"1d"}}"#, #"{"alert":"app/questionExit","pacing":"1/day"}"#,
            ],
            "TokenRequest": [#"{"ttl":59}"#, #"{"ttl":7776001}"#, #"{"lifetime":60}"#, #"{"lifetime":null}"#],
            "HoldRequest": [#"{"seconds":0}"#, #"{"seconds":601}"#, #"{"secs":1}"#, #"{"secs":null}"#],
            "AckRequest": [#"{"action":1}"#, #"{"button":"ok"}"#, #"{"button":null}"#, #"{"input":1}"#],
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
            for (name, errors) in try await DocumentSchema.failures(of: named(bodies), against: schema).sorted(by: { $0.key < $1.key }) {
                Issue.record("\(name) fails \(schema): \(errors)")
            }
        }
        for (schema, bodies) in refused.sorted(by: { $0.key < $1.key }) {
            let failing = try await DocumentSchema.failures(of: named(bodies), against: schema)
            for body in bodies where failing[body] == nil {
                Issue.record("\(body) passes \(schema)")
            }
        }
    }
}
