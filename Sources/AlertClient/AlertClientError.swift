import AlertSpec
import Foundation

/// Every failure an ``AlertClient`` reports, but cancellation (`CancellationError`) and what the
/// session-token provider throws: an answer of the server that is not a success — with the
/// server's problem+json (RFC 9457) when it sent one —, a request that never got an answer, an
/// answer the client cannot read, or a spec that fails validation.
///
/// ```swift
/// do {
///     try await client.ack(session: "ana-phone", ticket: delivery.ticket)
/// } catch let error as AlertClientError where error.code == .ticketGone {
///     // cancelled, expired or dead-lettered meanwhile: nothing to do
/// }
/// ```
///
/// A struct around a private enum, so new kinds of failure break no one.
public struct AlertClientError: Error, Sendable, CustomStringConvertible {
    /// The problem+json body of an error answer.
    public struct Problem: Sendable, Equatable, Codable {
        /// A URI naming the kind of problem, e.g. `urn:alertd:problem:ticket-gone`.
        public var type: String
        /// A short, fixed summary of the kind, e.g. `Gone`.
        public var title: String
        /// The HTTP status.
        public var status: Int
        /// What happened this time, for people.
        public var detail: String
        /// For invalid specs and request bodies: every rule broken, each with a JSON pointer.
        public var errors: [SpecIssue]?

        public init(type: String, title: String, status: Int, detail: String, errors: [SpecIssue]? = nil) {
            self.type = type
            self.title = title
            self.status = status
            self.detail = detail
            self.errors = errors
        }
    }

    private enum Reason: Sendable {
        /// The server answered with a status the call does not expect.
        case status(Int, Problem?)
        /// No answer: no connection, a timeout, a lost connection…
        case transport(any Error)
        /// An answer the client cannot read (not HTTP, not the JSON the contract promises).
        case malformedResponse(String)
        /// A spec that decodes but breaks the model's rules, or comes in an unknown schema version.
        case invalidSpec([SpecIssue])
    }

    private let reason: Reason

    static func status(_ status: Int, problem: Problem?) -> Self { .init(reason: .status(status, problem)) }
    static func transport(_ error: any Error) -> Self { .init(reason: .transport(error)) }
    static func malformedResponse(_ detail: String) -> Self { .init(reason: .malformedResponse(detail)) }
    static func invalidSpec(_ issues: [SpecIssue]) -> Self { .init(reason: .invalidSpec(issues)) }

    private init(reason: Reason) { self.reason = reason }

    /// What kind of failure this is.
    public var code: Code {
        switch reason {
        case .status(let status, _): Code(status: status)
        case .transport: .transport
        case .malformedResponse: .malformedResponse
        case .invalidSpec: .invalidSpec
        }
    }

    /// The HTTP status, when the server answered with one the call does not expect.
    public var status: Int? {
        if case .status(let status, _) = reason { return status }
        return nil
    }

    /// The server's problem+json, when it sent one.
    public var problem: Problem? {
        if case .status(_, let problem) = reason { return problem }
        return nil
    }

    /// The error of the request that never got an answer (a `URLError` as a rule).
    public var underlyingError: (any Error)? {
        if case .transport(let error) = reason { return error }
        return nil
    }

    /// The rules a received spec breaks (``Code/invalidSpec``).
    public var specIssues: [SpecIssue] {
        if case .invalidSpec(let issues) = reason { return issues }
        return problem?.errors ?? []
    }

    public var description: String {
        switch reason {
        case .status(let status, let problem?): "\(status) \(problem.title): \(problem.detail) (\(problem.type))"
        case .status(let status, nil): "HTTP status \(status)"
        case .transport(let error): "no answer from alertd: \(error)"
        case .malformedResponse(let detail): "unreadable answer from alertd: \(detail)"
        case .invalidSpec(let issues): "invalid spec: \(issues.map(\.description).joined(separator: "; "))"
        }
    }
}

extension AlertClientError {
    /// The kinds of failure, from the statuses the API documents and the client's own. Compare
    /// with `==` or `switch`; more may come.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private let name: String
        private init(_ name: String) { self.name = name }

        /// 400: a malformed request (a bad session id, a `wait` out of range, a bad parameter).
        public static let badRequest = Code("bad-request")
        /// 401: no session token, or one that is forged or expired. Get a new one.
        public static let unauthorized = Code("unauthorized")
        /// 403: a valid token that does not open this call (another session's).
        public static let forbidden = Code("forbidden")
        /// 404: no such catalog, alert or ticket.
        public static let notFound = Code("not-found")
        /// 410: the ticket's item is no longer live: cancelled, expired or dead-lettered.
        public static let ticketGone = Code("ticket-gone")
        /// 422: the request body breaks rules (an action the alert does not have).
        public static let invalidRequest = Code("invalid-request")
        /// 429: the session's queue is full.
        public static let queueFull = Code("queue-full")
        /// 503: the queue store is unreachable or the server is stopping; try again shortly.
        public static let unavailable = Code("unavailable")
        /// Any other status the call does not expect (500 and the rest).
        public static let unexpectedStatus = Code("unexpected-status")
        /// No answer: the request failed on the way (connection, timeout, TLS…).
        public static let transport = Code("transport")
        /// An answer the client cannot read.
        public static let malformedResponse = Code("malformed-response")
        /// A spec that fails the shared model's validation.
        public static let invalidSpec = Code("invalid-spec")

        init(status: Int) {
            self =
                switch status {
                case 400: .badRequest
                case 401: .unauthorized
                case 403: .forbidden
                case 404: .notFound
                case 410: .ticketGone
                case 422: .invalidRequest
                case 429: .queueFull
                case 503: .unavailable
                default: .unexpectedStatus
                }
        }

        public var description: String { name }
    }
}
