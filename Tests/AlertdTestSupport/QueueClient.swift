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
@testable import HTTPTestSupport

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
    var refreshed: Bool = false
}

struct QueueItemBody: Decodable {
    var ticket: String
    var alert: String?
    /// As the enqueue gave it; absent when none was given.
    var dedupeKey: String?
    var priority: Int
    var lane: String
    var state: String
    var enqueuedAt: String
    var notBefore: String?
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

/// The long-polls the server on `port` says wait (its `/metrics`), or nil when it does not answer.
func waitingPolls(port: Int) -> Double? {
    metric("alertd_long_polls_waiting", port: port)
}

/// The event feed's readers the server on `port` says wait (its `/metrics`), or nil when it does
/// not answer.
func waitingReaders(port: Int) -> Double? {
    metric("alertd_feed_readers_waiting", port: port)
}

/// The requests in flight on the server on `port` (its `/metrics`, the scrape itself included),
/// or nil when it does not answer.
func requestsInFlight(port: Int) -> Double? {
    metric("alertd_http_requests_in_flight", port: port)
}

/// The value of an unlabelled series of the `/metrics` of the server on `port`.
private func metric(_ name: String, port: Int) -> Double? {
    guard let text = try? RawHTTPClient(port: port).request("GET", "/metrics").text else { return nil }
    let sample = text.split(separator: "\n").first { $0.hasPrefix(name + " ") }
    return sample.flatMap { $0.split(separator: " ").last }.flatMap { Double($0) }
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

struct DeliveredSpec: Decodable {
    var spec: AlertSpec
}

/// The queue answers that fail a schema of openapi.yaml, by name, with the checker's errors.
enum DocumentSchema {
    static func failures(of bodies: [(String, [UInt8])], against schema: String) async throws -> [String: String] {
        let outcomes = try await SchemaChecker().check(bodies, against: schema)
        try #require(outcomes.count == bodies.count, "\(outcomes.count) reports for \(bodies.count) bodies")
        return outcomes.filter { !$0.value.valid }.mapValues(\.summary)
    }
}
