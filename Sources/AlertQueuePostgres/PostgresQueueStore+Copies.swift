import AlertQueue
import Foundation
import PostgresNIO

extension PostgresQueueStore {
    /// Copies of one alert on several sessions (a user's devices, a campaign's batch), inside the
    /// caller's transaction, the general way a batch of enqueues goes (`enqueueBatch`): every
    /// session's window locked and loaded in one round trip, the policy applied to each copy,
    /// then one multi-row insert and the events; last, the copies' group and campaign are set on
    /// the rows inserted (`alertd.insert_items` writes neither). A copy whose session's queue is
    /// full is refused alone. Sessions are locked in session order, as every multi-session
    /// transaction here locks them.
    func insertCopies(_ copies: [NewItem], now: Date, on connection: PostgresConnection) async throws -> [Result<EnqueueResult, QueueError>] {
        guard !copies.isEmpty else { return [] }
        let order = copies.indices.sorted { copies[$0].session < copies[$1].session }
        let sorted = order.map { copies[$0] }
        let windows = try await lockWindows(sorted.map(WindowRequest.enqueue), sequences: sorted.count, now: now, on: connection)
        let decided = try decide(sorted.map { ($0, now) }, databaseNow: windows.databaseNow, sequences: windows.sequences) {
            session, positioned in windows.sessionItems(session, positioned: positioned)
        }
        for items in decided.all {
            for item in items.updated { try await connection.query(try ItemRow.update(item, in: items), logger: logger) }
        }
        let inserted = decided.all.flatMap(\.inserted)
        if !inserted.isEmpty { try await connection.query(try ItemRow.insert(inserted, contents: contents), logger: logger) }
        if let events = EventRow.insert(decided.all.flatMap(\.events)) { try await connection.query(events, logger: logger) }
        let tagged = inserted.filter { $0.group != nil || $0.campaign != nil }
        if !tagged.isEmpty {
            try await connection.query(
                """
                UPDATE alertd.items AS i SET group_id = nullif(u.g, ''), campaign_id = nullif(u.c, '')
                FROM unnest(\(BinaryArray(tagged.map(\.ticket)))::text[], \(BinaryArray(tagged.map { $0.group ?? "" }))::text[],
                    \(BinaryArray(tagged.map { $0.campaign ?? "" }))::text[]) AS u(t, g, c)
                WHERE i.ticket = u.t
                """, logger: logger)
        }
        var results = [Result<EnqueueResult, QueueError>?](repeating: nil, count: copies.count)
        for (position, outcome) in zip(order, decided.outcomes) {
            switch outcome {
            case .success(var result):
                // A refreshed item's place is counted as written.
                if result.refreshed { result.position = try await place(ofQueued: result.item, on: connection) }
                results[position] = .success(result)
            case .failure(let error as QueueError):
                results[position] = .failure(error)
            case .failure(let error):
                throw error
            }
        }
        return results.map { $0! }
    }
}
