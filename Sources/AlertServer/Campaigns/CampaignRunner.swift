import AlertQueue
import Foundation
import Logging

/// Runs the fan-out of every running campaign, a batch at a time, in the background: for as
/// long as the server runs, it looks for running campaigns every `interval` (those another
/// instance made or left unfinished when it stopped), and at once when this one makes one
/// (`kick`). Each batch first reaches the sessions whose polls wait on this instance, so those
/// users see the campaign at once (their polls handed the copy delivered in the batch's own
/// transaction), then goes on through the audience in order; it wakes the polls of the
/// sessions it queued for. Several instances share the work batch by batch (the
/// store makes them take turns), so a campaign outlives the instance that started it.
public final class CampaignRunner: Sendable {
    let store: any CampaignStore
    let polls: LongPolls
    let clock: any AlertClock
    let logger: Logger
    /// Sessions per batch (one transaction each): the store's `fanOutBatch` unless given; and
    /// while sessions whose polls wait go first, its `fanOutFirstBatch` (no more than that).
    let batchSize: Int
    let firstBatchSize: Int
    let interval: Duration
    private let kicks: AsyncStream<Void>.Continuation
    private let kicked: AsyncStream<Void>

    public init(
        store: any CampaignStore, polls: LongPolls, clock: any AlertClock, logger: Logger, batchSize: Int? = nil,
        interval: Duration = .seconds(1)
    ) {
        self.store = store
        self.polls = polls
        self.clock = clock
        self.logger = logger
        self.batchSize = batchSize ?? store.fanOutBatch
        firstBatchSize = min(self.batchSize, store.fanOutFirstBatch)
        self.interval = interval
        (kicked, kicks) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(1))
    }

    /// Runs the campaigns now rather than at the next interval.
    public func kick() { kicks.yield() }

    /// Until the calling task is cancelled.
    public func run() async {
        let interval = interval
        await withTaskGroup(of: Void.self) { group in
            // Ticks at the interval, into the same stream as the kicks.
            group.addTask { [kicks] in
                while !Task.isCancelled {
                    try? await Task.sleep(for: interval)
                    kicks.yield()
                }
            }
            group.addTask { [self] in
                await runAll()
                for await _ in kicked {
                    if Task.isCancelled { break }
                    await runAll()
                }
            }
            await group.next()
            group.cancelAll()
        }
    }

    /// Fans out every running campaign to its end (or until a batch fails: tried again later).
    func runAll() async {
        let running: [String]
        do {
            running = try await store.runningCampaigns()
        } catch {
            logger.warning("campaigns not read", metadata: ["error": "\(error)"])
            return
        }
        for id in running where !Task.isCancelled { await fanOut(id) }
    }

    /// Each waiting poll of the sessions passed first is claimed, and handed what `next`
    /// delivered for it in the batch's own transaction, or woken to look itself. Sessions a
    /// batch ended before (`FanOut.unreached`) stay claimed and go first in the next.
    private func fanOut(_ id: String) async {
        var waiting = polls.waitingSessions[...]
        var claimed: [String: LongPolls.Look] = [:]
        var carried: [String] = []
        var reached = 0
        defer { for look in claimed.values { look(nil) } }
        while !Task.isCancelled {
            var chunk = carried
            while chunk.count < firstBatchSize, let session = waiting.popFirst() {
                chunk.append(session)
                claimed[session] = polls.claim(session)
            }
            do {
                let batch = try await store.fanOut(
                    campaign: id, first: chunk, limit: chunk.isEmpty ? batchSize : chunk.count, delivering: Set(claimed.keys),
                    now: clock.now())
                carried = batch.unreached
                let unreached = Set(carried)
                for session in chunk where !unreached.contains(session) {
                    claimed.removeValue(forKey: session)?(batch.delivered[session])
                }
                reached += batch.queued.count
                for session in batch.queued { polls.notify(session) }
                if !batch.queued.isEmpty { polls.feed.notify() }
                if batch.finished {
                    logger.info("campaign fanned out", metadata: ["campaign": "\(id)", "queued": "\(reached)"])
                    return
                }
            } catch {
                logger.warning("campaign batch failed; tried again later", metadata: ["campaign": "\(id)", "error": "\(error)"])
                return
            }
        }
    }
}
