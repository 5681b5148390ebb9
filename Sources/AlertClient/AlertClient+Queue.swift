import AlertSpec
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension AlertClient {
    /// What the app is to do next in `session`, waiting up to `wait` for it (long-poll:
    /// `GET /v1/sessions/{session}/next`): show an alert, or take one it shows off the screen;
    /// nil when nothing came within `wait` (204).
    ///
    /// ``AlertPoll/show(_:)``: the delivered item is now presenting: show it, then
    /// ``ack(session:ticket:action:input:)`` it; until then its lane delivers nothing else (HUDs
    /// never wait). ``AlertPoll/withdraw(ticket:)``: the alert of that ticket, delivered earlier,
    /// was taken back (answered on another of the user's devices, or recalled): dismiss it
    /// without an ack (the server would answer 410), and poll again. Each withdraw comes once,
    /// before any new alert.
    ///
    /// The request's timeout is `wait` plus ``AlertClientConfiguration/requestTimeout``, and
    /// cancelling the calling task cancels the request (`CancellationError`).
    ///
    /// - Parameters:
    ///   - wait: how long the server may hold the request, rounded up to whole seconds;
    ///     0 answers at once. The server takes at most 30 s (more is ``AlertClientError/Code/badRequest``).
    ///   - locale: the language to render a catalog alert in; nil: `Accept-Language`.
    /// - Throws: ``AlertClientError``: ``AlertClientError/Code/unauthorized`` (401) for a
    ///   missing, forged or expired token, ``AlertClientError/Code/forbidden`` (403) for another
    ///   session's, ``AlertClientError/Code/unavailable`` (503) when the store is down, …
    public func poll(session: String, wait: Duration = .seconds(25), locale: String? = nil) async throws -> AlertPoll? {
        let seconds = Self.wholeSeconds(wait)
        var query = [(name: "wait", value: String(seconds))]
        if let locale { query.append((name: "locale", value: locale)) }
        var request = try makeRequest(
            "GET", Endpoint(segments: ["v1", "sessions", session, "next"], query: query), extraTimeout: TimeInterval(seconds))
        try await authorize(&request, session: session)

        let answer = try await send(request)
        switch answer.status {
        case 204:
            return nil
        case 200:
            if let withdraw = try? JSONDecoder().decode(AlertWithdraw.self, from: answer.body) {
                return .withdraw(ticket: withdraw.withdraw)
            }
            let delivery = try ReceivedSpec.decode(AlertDelivery.self, from: answer.body)
            _ = try ReceivedSpec.check(delivery.spec)
            state.withLock { $0.statistics.specsDecoded += 1 }
            return .show(delivery)
        default:
            throw answer.unexpected()
        }
    }

    /// The next alert to show in `session`, as ``poll(session:wait:locale:)`` hands it, waiting
    /// up to `wait` in all; nil when none came within it. A withdraw on the way is given to
    /// `withdrawn` (dismiss that alert), and the wait goes on for an alert.
    public func next(
        session: String, wait: Duration = .seconds(25), locale: String? = nil,
        withdrawn: @Sendable (String) async -> Void = { _ in }
    ) async throws -> AlertDelivery? {
        let deadline = ContinuousClock.now + wait
        while true {
            let left = max(deadline - ContinuousClock.now, .zero)
            switch try await poll(session: session, wait: left, locale: locale) {
            case .show(let delivery)?: return delivery
            case .withdraw(let ticket)?: await withdrawn(ticket)
            case nil: return nil
            }
        }
    }

    /// Tells the server the popup of `ticket` was dismissed
    /// (`POST /v1/sessions/{session}/queue/{ticket}/ack`): its item is done and its lane free.
    ///
    /// `action` is the id of what the user picked: a button or option id (`leave`, `cancel`), or
    /// for a card `<page id>.action` / `<page id>.alternative`. When that action is a
    /// `{"type": "next", …}`, the server queues its alert first in line and the answer names it
    /// (``AlertAcknowledgement/chained``). Acknowledging a done item again changes nothing.
    ///
    /// - Throws: ``AlertClientError``: ``AlertClientError/Code/ticketGone`` (410) when the item
    ///   was cancelled, expired or dead-lettered meanwhile (nothing to do),
    ///   ``AlertClientError/Code/notFound`` (404) for a ticket the session does not have,
    ///   ``AlertClientError/Code/invalidRequest`` (422) for an action the alert does not have, …
    ///
    /// `input` is what the user typed in the alert's input field, kept with the done item for
    /// your backend; the server checks it against the field (422 otherwise). Never send a secure
    /// field's value (the server refuses it): send secrets to your own backend, never to alertd.
    @discardableResult
    public func ack(session: String, ticket: String, action: String? = nil, input: String? = nil) async throws -> AlertAcknowledgement {
        var request = try makeRequest("POST", Endpoint(segments: ["v1", "sessions", session, "queue", ticket, "ack"]))
        var body: [String: String] = [:]
        body["action"] = action
        body["input"] = input
        if !body.isEmpty {
            request.httpBody = try JSONEncoder().encode(body)
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        try await authorize(&request, session: session)

        let answer = try await send(request)
        guard answer.status == 200 else { throw answer.unexpected() }
        return try answer.decode(AlertAcknowledgement.self)
    }

    /// `duration` in whole seconds, rounded up (a wait is never shorter than asked), at least 0.
    static func wholeSeconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        guard seconds >= 0, duration > .zero else { return 0 }
        return seconds + (attoseconds > 0 ? 1 : 0)
    }
}
