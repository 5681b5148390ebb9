import AlertQueue
import Foundation
import GRDB

// Copies of one alert on several sessions in one write, the take-back of a group's other copies
// when one is answered, and the withdraws that leaves owed to devices (see `WithdrawalRecord`).

extension SQLiteQueueStore {
    /// Each copy as `enqueue` queues it, all in one write: a copy whose session's queue is full
    /// is refused alone (its entry is the error), the others are queued.
    public func enqueue(copies: [NewItem], now: Date) async throws -> [Result<EnqueueResult, QueueError>] {
        let tickets = copies.map { _ in QueueTicket.make(at: now) }
        return try await write { db in
            var results: [Result<EnqueueResult, QueueError>] = []
            results.reserveCapacity(copies.count)
            for (copy, ticket) in zip(copies, tickets) {
                do {
                    let queued = try self.enqueue(copy, ticket: ticket, now: now, in: db, seeingLiveItems: true, delivering: false)
                    results.append(.success(queued.enqueued))
                } catch let error as QueueError where error.kind == .queueFull {
                    results.append(.failure(error))
                }
            }
            return results
        }
    }

    /// What the session's device is owed first, a withdraw, else `next`'s delivery. Like `next`,
    /// it learns from a read on its own thread that there is neither, without waiting for the
    /// writer.
    public func nextDelivery(session: String, now: Date) async throws -> Delivery? {
        let (live, owed) = try read { db in try Self.liveAndOwed(session: session, in: db) }
        guard live || owed else { return nil }
        return try await write { db in
            if owed, let ticket = try WithdrawalRecord.take(session: session, in: db) { return .withdraw(ticket: ticket) }
            return try self.deliverNext(session: session, now: now, in: db).map(Delivery.item)
        }
    }

    public func isOwedWithdraw(session: String) async throws -> Bool {
        try read { db in try WithdrawalRecord.isOwed(session: session, in: db) }
    }

    /// `next`'s step: the session's window read for a delivery, the best item delivered, written.
    func deliverNext(session: String, now: Date, in db: Database) throws -> QueueItem? {
        var window = try SessionWindow(session: session, now: now, in: db, contents: contents)
        try window.readBest()
        // An item its pacing holds back may hide the next best, which the window did not read.
        let profile = try profile(session: session, in: db)
        let effective = profile.over(policy.settings.profile)
        var (history, keys): (PacingHistory?, PacingShown.Keys?) = (nil, nil)
        if PacingRecord.paces(window.items) || !effective.isNone {
            keys = try PacingShown.keys(session: session, in: db)
            let read = try PacingShown.history(for: window.items, profile: effective, session: session, keys: keys, now: now, in: db)
            let bypass = policy.settings.bypassPriority
            if PacingRecord.holdsBack(window.items, history: read, profile: effective, bypassPriority: bypass, now: now) {
                try window.readLive()
            } else {
                history = read
            }
        }
        var items = window.sessionItems()
        let delivered = try deliver(from: &items, now: now, whole: true, history: history, profile: profile, keys: keys, in: db)
        try save(items, in: db)
        return delivered
    }

    /// Takes back the live copies of `group` but `answered` (the ticket whose ack finishes the
    /// group), session by session, in the write that acknowledges it: queued copies cancelled,
    /// presenting ones withdrawn and owed to their devices.
    func takeBack(group: String, answered: String, now: Date, in db: Database) throws -> [TakenBack] {
        var taken: [TakenBack] = []
        for (session, tickets) in try WithdrawalRecord.liveCopies(of: group, except: answered, in: db).sorted(by: { $0.key < $1.key }) {
            var window = try SessionWindow(session: session, now: now, in: db, contents: contents)
            for ticket in tickets { try window.readTicket(ticket) }
            var items = window.sessionItems()
            let session = policy.withdraw(tickets: tickets, by: .answered, after: answered, in: &items, now: now)
            try save(items, in: db)
            for copy in session where copy.withdrawn {
                try WithdrawalRecord.owe(session: copy.session, ticket: copy.ticket, at: now, in: db)
            }
            taken += session
        }
        return taken
    }

    /// Whether the session has a live item, and whether it is owed a withdraw: one statement.
    private static func liveAndOwed(session: String, in db: Database) throws -> (Bool, Bool) {
        var answer = (false, false)
        try RawBinding.query(liveAndOwedSQL, in: db) { statement in
            RawBinding.text(session, to: statement, at: 1)
        } row: { row in
            answer = (Bool.fromStatement(row, atUncheckedIndex: 0) ?? false, Bool.fromStatement(row, atUncheckedIndex: 1) ?? false)
        }
        return answer
    }

    private static let liveAndOwedSQL = """
        SELECT EXISTS (SELECT 1 FROM items WHERE session = ?1 AND state IN ('queued', 'presenting')),
               EXISTS (SELECT 1 FROM withdrawals WHERE session = ?1)
        """
}
