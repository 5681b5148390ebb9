import AlertQueue
import AlertSpec
import Foundation
import GRDB

// A campaign's fan-out on SQLite: each batch one background write, which gives the writer
// back to the live writes as soon as one waits.

extension SQLiteQueueStore {
    /// Sessions a batch reaches at most. A batch is a background write (after the live writes
    /// waiting, with no flush of its own) that ends early once a live write waits and it has
    /// queued `fanOutYieldAfter` copies: a long batch costs live requests nothing, and an idle
    /// writer spends no time between batches. A crash of the machine may take back the last
    /// batches, items and cursor together, and the fan-out does them again.
    public var fanOutBatch: Int { 2_048 }

    /// Sessions whose polls wait, per batch: each gets its copy delivered in the batch (the
    /// enqueue's whole way), and the batch gives way to live writes as the others do.
    public var fanOutFirstBatch: Int { 256 }

    /// Copies a batch queues before it gives way to a waiting live write: about half a
    /// millisecond of the writer. Each time it gives way costs the fan-out a commit and a new
    /// batch; beside one connection of live cycles, 16 made 25,000 items/s with their p99 at
    /// 1.65–2.0 × idle, 48 made 29,000 at 2.0–2.4 × (`make bench-campaigns`, no poll waiting,
    /// on an earlier 2-core VM).
    static let fanOutYieldAfter = 16

    /// Sessions read, and counted, per statement: a batch that gives way after a few copies
    /// has read little it does not use (pages of 256 cost a batch of 16 copies a fifth of the
    /// fan-out's rate).
    static let fanOutPage = 32

    public func fanOut(campaign id: String, first: [String], limit: Int, now: Date) async throws -> FanOut {
        try await fanOut(campaign: id, first: first, limit: limit, delivering: [], now: now)
    }

    public func fanOut(campaign id: String, first: [String], limit: Int, delivering: Set<String>, now: Date) async throws -> FanOut {
        try await write(background: true) { db in
            guard let (campaign, cursor) = try CampaignRecord.fetch(id, in: db), campaign.state == .running else {
                return FanOut(finished: true)
            }
            var run = FanOutRun(campaign: campaign, delivering: delivering, now: now)
            let audience = AudienceSQL(campaign: campaign, db: db)
            // The sessions passed first, a page at a time, so the batch can give way between
            // any two of them: those left when it does go first in the next batch.
            var rest = first[...]
            while !rest.isEmpty, run.targeted < limit, !run.yielded {
                let page = rest.prefix(Self.fanOutPage)
                rest = rest.dropFirst(page.count)
                let waiting = try page.filter { session in
                    try audience.contains(session) && !CampaignRecord.hasCopy(campaign: id, session: session, in: db)
                }
                let passed = try queueCopies(waiting[...], upTo: limit, in: &run, db: db)
                run.batch.unreached += waiting.dropFirst(passed)
            }
            run.batch.unreached += rest
            // Then the audience in order from the cursor, a page at a time (its sessions with a
            // copy left out); the cursor moves past the last session the batch reached.
            var next = cursor
            while run.targeted < limit && !run.yielded {
                let wanted = min(Self.fanOutPage, limit - run.targeted)
                let page = try audience.page(after: next, limit: wanted)
                let passed = try queueCopies(page.map(\.session)[...], upTo: limit, in: &run, db: db)
                if passed > 0 { next = page[passed - 1].cursor }
                if page.count < wanted && passed == page.count {
                    run.batch.finished = true
                    break
                }
            }
            try db.cachedStatement(sql: Self.progressSQL).execute(arguments: [
                id, next, run.targeted, run.batch.queued.count, run.batch.duplicates, run.batch.refused, run.batch.finished,
                now.timeIntervalSince1970,
            ])
            return run.batch
        }
    }

    /// The batch's progress: the cursor, the counts, and whether the campaign is done. Cached: a
    /// batch that gives way after a few copies would otherwise parse it again each time.
    private static let progressSQL = """
        UPDATE campaigns SET cursor = ?2, targeted = targeted + ?3, queued = queued + ?4, duplicates = duplicates + ?5,
            refused = refused + ?6,
            state = CASE WHEN ?7 THEN 'done' ELSE state END, finished_at = CASE WHEN ?7 THEN ?8 ELSE finished_at END
        WHERE id = ?1
        """

    /// Queues a copy on each of `sessions` in order, until the batch targeted `limit`, or a
    /// live write waits once the batch has targeted `fanOutYieldAfter`. How many of `sessions`
    /// it passed (a session listed twice is passed, and targeted once).
    private func queueCopies(_ sessions: ArraySlice<String>, upTo limit: Int, in run: inout FanOutRun, db: Database) throws -> Int {
        let counts = try CampaignRecord.counts(of: Array(sessions), dedupeKey: run.campaign.template.dedupeKey, in: db)
        var passed = 0
        for session in sessions {
            if run.targeted >= limit { break }
            if run.targeted >= Self.fanOutYieldAfter, batcher.backlog > 0 {
                run.yielded = true
                break
            }
            passed += 1
            guard run.chosen.insert(session).inserted else { continue }
            run.targeted += 1
            let copy = run.campaign.copy(for: session)
            let ticket = QueueTicket.make(at: run.now)
            let delivering = run.delivering.contains(session)
            // Most sessions hold no live item with the copy's key and have room: the copy is
            // only inserted, which the counts alone tell (as `enqueue_counted` does on
            // PostgreSQL), and no item is read; so is it delivered to a waiting poll when the
            // session holds no live item at all. The others go the enqueue's whole way.
            if copy.lane != .hud, let count = counts[session], !count.holder, count.live < policy.settings.maxQueueLength,
                !delivering || count.live == 0
            {
                let item = policy.makeItem(copy, ticket: ticket, sequence: try sequences.next(in: db), now: run.now)
                var items = SessionItems(session: session, items: [], unloaded: .init(window: [], live: count.live, positioned: [(item, 0)]))
                _ = try policy.enqueue(item, into: &items, now: run.now, onDuplicate: copy.onDuplicate, origin: copy.origin)
                if delivering, try !WithdrawalRecord.isOwed(session: session, in: db),
                    let shown = try deliver(from: &items, now: run.now, in: db)
                {
                    run.batch.delivered[session] = shown
                }
                try save(items, in: db)
                run.batch.queued.append(session)
                continue
            }
            do {
                let queued = try enqueue(copy, ticket: ticket, now: run.now, in: db, seeingLiveItems: true, delivering: delivering)
                if queued.enqueued.created { run.batch.queued.append(session) } else { run.batch.duplicates += 1 }
                if let delivered = queued.delivered { run.batch.delivered[session] = delivered }
            } catch let error as QueueError where error.kind == .queueFull {
                run.batch.refused += 1
            }
        }
        return passed
    }
}

/// One fan-out batch under way: what it queues, how far it went.
private struct FanOutRun {
    let campaign: Campaign
    let delivering: Set<String>
    let now: Date
    var batch = FanOut(finished: false)
    /// Sessions targeted (queued, duplicate or refused), each once.
    var targeted = 0
    var chosen: Set<String> = []
    /// Stopped for a waiting live write.
    var yielded = false
}
