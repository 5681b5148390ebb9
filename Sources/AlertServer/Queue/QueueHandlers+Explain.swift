import AlertQueue
import Foundation

extension QueueHandlers {
    /// How many finished items `GET …/explain` shows as `recent`.
    static let explainedFinished = 5

    /// Why the session's queue is as it is now (admin): what `next` delivers and why, and why
    /// every other item waits or how it ended. Reads the session, changes nothing.
    /// With `?ticket=`, that one item, in whatever state (404 for one the session does not have).
    func explain(_ request: Request) async throws -> any ResponseGenerator {
        let session = try Self.session(of: request)
        try access.requireAdmin(request)
        let ticket = try request.query("ticket")
        let snapshot = try await store.snapshot(session: session, now: clock.now(), finished: Self.explainedFinished)
        let why = QueueExplanation(snapshot, policy: QueuePolicy(settings: settings))
        guard let ticket else {
            var endings: [String: ItemEvent] = [:]
            for finished in why.recent where !finished.item.state.isLive {
                endings[finished.item.ticket] = try await store.timeline(session: session, ticket: finished.item.ticket).last?.event
            }
            return uncached(ExplanationView(why, endings: endings))
        }
        if let explained = why.item(ticket: ticket) {
            let ending = explained.item.state.isLive ? nil : try await store.timeline(session: session, ticket: ticket).last?.event
            return uncached(TicketExplanationView(
                session: session, now: why.now.formatted(.iso8601), item: ItemExplanationView(explained, ending: ending)))
        }
        // Not live and not among the latest finished: an older finished item, if the session has it.
        guard let item = try await store.item(session: session, ticket: ticket), !item.state.isLive else {
            throw QueueError.notFound(ticket: ticket)
        }
        let explained = QueueExplanation.finished(item)
        let ending = try await store.timeline(session: session, ticket: ticket).last?.event
        return uncached(TicketExplanationView(
            session: session, now: why.now.formatted(.iso8601), item: ItemExplanationView(explained, ending: ending)))
    }
}
