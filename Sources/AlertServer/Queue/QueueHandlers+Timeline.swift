import AlertQueue
import Foundation

/// An item with its timeline, and a session's past items, page by page: for the backend (admin)
/// and for the app (its own session).
extension QueueHandlers {
    /// The longest page of `history`, and the one given without `limit`.
    static let historyLimits = (max: 100, default: 20)

    /// One item, in whatever state, with the input its ack gave and its timeline.
    func item(_ request: Request) async throws -> any ResponseGenerator {
        let session = try Self.session(of: request)
        try access.requireSession(session, request, adminAllowed: true)
        let ticket = request.path("ticket")
        guard let item = try await store.item(session: session, ticket: ticket) else {
            throw QueueError.notFound(ticket: ticket)
        }
        var view = ItemView(item)
        view.timeline = try await store.timeline(session: session, ticket: ticket).map(EventView.init)
        return uncached(view)
    }

    /// The session's finished items, newest first, `limit` at a time, from the cursor `before`.
    func history(_ request: Request) async throws -> any ResponseGenerator {
        let session = try Self.session(of: request)
        try access.requireSession(session, request, adminAllowed: true)
        let limit = try request.query("limit").map { text -> Int in
            guard let limit = Int(text), (1...Self.historyLimits.max).contains(limit) else {
                throw APIError.badRequest("limit is a whole number from 1 to \(Self.historyLimits.max).")
            }
            return limit
        } ?? Self.historyLimits.default
        let before = try request.query("before").map { text in
            guard let cursor = HistoryCursorText.decode(text) else {
                throw APIError.badRequest("before is a cursor from an earlier page's next.")
            }
            return cursor
        }
        let page = try await store.history(session: session, before: before, limit: limit)
        return uncached(History(session: session, items: page.items.map(ItemView.init), next: page.next.map(HistoryCursorText.encode)))
    }
}

/// The history's cursor as clients hold it: opaque, URL-safe (`h1.` and the enqueue sequence to
/// start below, base64url), so its form can change without breaking a client.
enum HistoryCursorText {
    static func encode(_ cursor: HistoryCursor) -> String {
        Data("h1.\(cursor.sequence)".utf8).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    static func decode(_ text: String) -> HistoryCursor? {
        guard text.count <= 64, text.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }) else {
            return nil
        }
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        guard let data = Data(base64Encoded: base64), let plain = String(data: data, encoding: .utf8), plain.hasPrefix("h1."),
            let sequence = Int64(plain.dropFirst(3)), sequence > 0, String(sequence) == plain.dropFirst(3)
        else { return nil }
        return HistoryCursor(sequence: sequence)
    }
}
