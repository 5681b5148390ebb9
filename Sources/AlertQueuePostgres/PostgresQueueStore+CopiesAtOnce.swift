import AlertQueue
import AlertSpec
import Foundation
import PostgresNIO

extension PostgresQueueStore {
    /// A fan-out batch's copies, inside the caller's transaction: those `alertd.enqueue_copies`
    /// can simply insert in one statement (the common case), then the others the general way
    /// (`insertCopies`): a session held back there had nothing written.
    func insertFannedOutCopies(_ copies: [NewItem], now: Date, on connection: PostgresConnection) async throws -> [Result<EnqueueResult, QueueError>] {
        var results = try await insertCopiesAtOnce(copies, now: now, on: connection)
        let heldBack = results.indices.filter { results[$0] == nil }
        if !heldBack.isEmpty {
            let general = try await insertCopies(heldBack.map { copies[$0] }, now: now, on: connection)
            for (index, result) in zip(heldBack, general) { results[index] = result }
        }
        return results.map { $0! }
    }

    /// `copies` through `alertd.enqueue_copies`, then the `enqueued` events of those it
    /// inserted: each copy's outcome, or nil for the copies of the sessions it held back (all of
    /// them when the template is scheduled or paced: the function writes neither). As for
    /// `enqueue_counted`, the policy, applied over the counts the function returned, gives the
    /// answers and the events, and must agree that each copy was simply inserted; a disagreement
    /// fails the batch. The positions it gives count only the copy itself: a fan-out reports none.
    func insertCopiesAtOnce(_ copies: [NewItem], now: Date, on connection: PostgresConnection) async throws -> [Result<EnqueueResult, QueueError>?] {
        var outcomes = [Result<EnqueueResult, QueueError>?](repeating: nil, count: copies.count)
        guard !copies.isEmpty, copies.allSatisfy({ $0.notBefore == nil && $0.pacing.isNone }) else { return outcomes }
        let tickets = copies.map { _ in QueueTicket.make(at: now) }
        let contents = try copies.map { try self.contents.json($0.content) }
        // With the caller's clock, the times are the caller's, and the expiry is computed here
        // exactly as `QueuePolicy.makeItem` computes it; with the database's, there.
        let callers = options.clock == .caller
        let at = callers ? now.timeIntervalSince1970 : .nan
        func column<Element>(_ value: (NewItem) -> Element) -> BinaryArray<Element> { BinaryArray(copies.map(value)) }
        let rows = try await connection.query(
            """
            SELECT * FROM alertd.enqueue_copies(\
            \(BinaryArray(tickets))::text[], \(column(\.session))::text[], \
            \(BinaryArray(contents))::text[], \(column { Int64($0.priority) })::bigint[], \(column(\.lane.rawValue))::text[], \
            \(column(\.dedupeKey))::text[], \(column { $0.ttl ?? .nan })::float8[], \
            \(column { copy in callers ? copy.ttl.map { now.addingTimeInterval($0).timeIntervalSince1970 } ?? .nan : .nan })::float8[], \
            \(column(\.atHead))::boolean[], \(column { _ in at })::float8[], \(column { $0.group ?? "" })::text[], \
            \(column { $0.campaign ?? "" })::text[], \(policy.settings.maxQueueLength)::integer)
            """, logger: logger
        ).collect()
        guard let row = rows.first else { throw PostgresStoreError.unreadableRow("enqueue_copies returned no row") }
        let columns = row.makeRandomAccess()
        let databaseNow = try columns[0].decode(Double.self), sequences = try columns[1].decode([Int64].self)
        let heldBack = Set(try columns[2].decode([String].self)), live = try columns[3].decode([Int64].self)
        guard sequences.count == copies.count, live.count == copies.count else {
            throw PostgresStoreError.unreadableRow("enqueue_copies returned \(sequences.count) sequences for \(copies.count) copies")
        }
        let inserted = copies.indices.filter { !heldBack.contains(copies[$0].session) }
        guard !inserted.isEmpty else { return outcomes }
        // Nothing read: the policy decides over the counts alone, which is all a simple insert needs.
        let decided = try decide(
            inserted.map { (copies[$0], now) }, databaseNow: databaseNow, sequences: inserted.map { sequences[$0] },
            tickets: inserted.map { tickets[$0] }
        ) { session, positioned in
            SessionItems(session: session, items: [], unloaded: SessionItems.Unloaded(live: Int(live[inserted[positioned[0].request]])))
        }
        try requireAgreement(decided, inserted: inserted, tickets: tickets)
        if let events = EventRow.insert(decided.all.flatMap(\.events)) { try await connection.query(events, logger: logger) }
        for (outcome, index) in zip(decided.outcomes, inserted) {
            if case .success(let result) = outcome { outcomes[index] = .success(result) }
        }
        return outcomes
    }
}
