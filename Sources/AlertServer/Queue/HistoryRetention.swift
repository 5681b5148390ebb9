import AlertQueue
import AlertSpec
import Foundation
import Logging

/// Deletes the queue's history once it is older than the retention: in the background, a pass
/// every `interval`, each a sweep of short purge batches (`QueueStore.purge`) with a pause
/// between two, so that live writes interleave with them. Time comes from `clock`: an item
/// finished before `clock.now() - retention` goes, with its events.
///
/// ```swift
/// let retention = HistoryRetention(store: store, clock: clock, retention: 30 * 86_400, logger: logger)
/// let task = Task { await retention.run() }   // for the server's life
/// task.cancel()                                // at shutdown
/// ```
public struct HistoryRetention: Sendable {
    public let store: any QueueStore
    public let clock: any AlertClock
    /// Seconds a finished item is kept.
    public let retention: TimeInterval
    /// Seconds the daily outcome roll-ups are kept (`--outcomes-retention`), for the step that
    /// deletes the older ones in each pass.
    public let outcomesRetention: TimeInterval
    /// Items each purge batch looks at (by default, the store's `purgePace`).
    public let batchSize: Int
    /// Between two passes.
    public let interval: Duration
    /// Between two batches of a pass (by default, the store's `purgePace`).
    public let pause: Duration
    public let logger: Logger
    /// Counts the events about to go into the daily outcomes first (nil: none kept).
    public let rollUps: OutcomeRollUps?
    /// Seconds a session may go unseen before it is forgotten (`--session-idle`); nil forgets none.
    public let sessionIdle: TimeInterval?
    /// The times this instance saw sessions but has not written: flushed before idle sessions
    /// are looked for, so none it saw lately looks idle.
    public let seen: SeenSessions?
    /// Idle sessions forgotten in one pass, at most; the rest wait for the next pass.
    public let idlePerPass: Int

    public init(
        store: any QueueStore, clock: any AlertClock, retention: TimeInterval, outcomesRetention: TimeInterval = 400 * 86_400,
        batchSize: Int? = nil, interval: Duration = .seconds(60), pause: Duration? = nil,
        logger: Logger = Logger(label: "alertd"), rollUps: OutcomeRollUps? = nil,
        sessionIdle: TimeInterval? = nil, seen: SeenSessions? = nil, idlePerPass: Int = 1_000
    ) {
        self.rollUps = rollUps
        self.sessionIdle = sessionIdle
        self.seen = seen
        self.idlePerPass = idlePerPass
        self.store = store
        self.clock = clock
        self.retention = retention
        self.outcomesRetention = outcomesRetention
        self.batchSize = batchSize ?? store.purgePace.batchSize
        self.interval = interval
        self.pause = pause ?? store.purgePace.pause
        self.logger = logger
    }

    /// Runs a pass at once, then one every `interval`, until the calling task is cancelled. A
    /// pass that fails (the store unreachable) is logged and tried again at the next interval.
    public func run() async {
        while !Task.isCancelled {
            do {
                try await pass()
            } catch is CancellationError {
                return
            } catch {
                logger.warning("history retention failed; trying again later", metadata: ["error": "\(error)"])
            }
            try? await Task.sleep(for: interval)
        }
    }

    /// One pass: every step of the retention, in order, at one instant of the clock. The events
    /// about to go are rolled up into the daily outcomes first, whatever the roll-up's own
    /// cadence; then the outcome days older than `outcomesRetention` go, and the paced deliveries
    /// no rule counts any more, then the history, then
    /// the sessions idle longer than `sessionIdle` (`forgetIdleSessions`).
    @discardableResult
    public func pass() async throws -> Erasure {
        let now = clock.now()
        try await rollUps?.catchUp()
        let counters = try await store.purgeOutcomes(before: OutcomeDay(now.addingTimeInterval(-outcomesRetention)))
        if counters > 0 { logger.info("outcome counters purged", metadata: ["counters": "\(counters)"]) }
        // Paced deliveries past the longest period a rule may count, but each alert's last.
        let shown = try await store.purgePacing(before: now.addingTimeInterval(-Double(Pacing.maxPeriod.seconds)))
        if shown > 0 { logger.info("paced deliveries purged", metadata: ["deliveries": "\(shown)"]) }
        let purged = try await purge(finishedBefore: now.addingTimeInterval(-retention))
        if let sessionIdle { try await forgetIdleSessions(seenBefore: now.addingTimeInterval(-sessionIdle)) }
        return purged
    }

    /// Purges what finished before `cutoff`, batch after batch until the sweep reaches the cutoff;
    /// logs what went at `info` when anything did.
    private func purge(finishedBefore cutoff: Date) async throws -> Erasure {
        let started = ContinuousClock.now
        var purged = Erasure.nothing
        var cursor: PurgeCursor?
        var batches = 0
        repeat {
            if batches > 0, pause > .zero { try await Task.sleep(for: pause) }
            try Task.checkCancellation()
            let batch = try await store.purge(finishedBefore: cutoff, after: cursor, limit: batchSize)
            purged.items += batch.items
            purged.events += batch.events
            cursor = batch.next
            batches += 1
        } while cursor != nil
        if purged.items > 0 {
            let took = ContinuousClock.now - started
            logger.info(
                "history purged",
                metadata: [
                    "items": "\(purged.items)", "events": "\(purged.events)", "batches": "\(batches)",
                    "took_ms": "\(took.components.seconds * 1000 + took.components.attoseconds / 1_000_000_000_000_000)",
                ])
        }
        return purged
    }
}
