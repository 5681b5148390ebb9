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

    /// First the sessions whose polls wait, then the rest of the audience.
    private func fanOut(_ id: String) async {
        do {
            var reached = 0
            if try await serveWaiting(id, reached: &reached) || Task.isCancelled { return }
            try await serveRest(id, reached: &reached)
        } catch {
            logger.warning("campaign batch failed; tried again later", metadata: ["campaign": "\(id)", "error": "\(error)"])
        }
    }

    /// Each waiting poll of the sessions passed first is claimed, and handed what `next`
    /// delivered for it in the batch's own transaction, or woken to look itself. Two batches
    /// wait in the store's queue at a time, as in `serveRest`: the writer goes from one to the
    /// next while this task answers the polls of the one before. Sessions a batch ended before
    /// (`FanOut.unreached`) stay claimed and go first in a later one. Whether the campaign is
    /// finished.
    private func serveWaiting(_ id: String, reached: inout Int) async throws -> Bool {
        var waiting = polls.waitingSessions[...]
        var claimed: [String: LongPolls.Look] = [:]
        var carried: [String] = []
        defer { for look in claimed.values { look(nil) } }
        // A batch that fails stops new ones, but the one beside it is still answered: its
        // copies may be delivered, and its polls handed them.
        let (finished, failure) = await withTaskGroup(of: (chunk: [String], batch: Result<FanOut, any Error>).self) { group in
            var finished = false
            var failure: (any Error)?
            // The next batch's sessions, the carried ones first; nil when none is left.
            func nextChunk() -> [String]? {
                var chunk = carried
                carried = []
                while chunk.count < firstBatchSize, let session = waiting.popFirst() {
                    chunk.append(session)
                    claimed[session] = polls.claim(session)
                }
                return chunk.isEmpty ? nil : chunk
            }
            func send(_ chunk: [String]) {
                group.addTask { [store, clock] in
                    let batch = await Result(awaiting: {
                        try await store.fanOut(campaign: id, first: chunk, limit: chunk.count, delivering: Set(chunk), now: clock.now())
                    })
                    return (chunk, batch)
                }
            }
            for _ in 0..<2 { if let chunk = nextChunk() { send(chunk) } }
            while let (chunk, result) = await group.next() {
                switch result {
                case .failure(let error):
                    failure = failure ?? error
                case .success(let batch):
                    let unreached = Set(batch.unreached)
                    carried += batch.unreached
                    polls.answeringTogether {
                        for session in chunk where !unreached.contains(session) {
                            claimed.removeValue(forKey: session)?(batch.delivered[session])
                        }
                    }
                    finished = done(id, batch, reached: &reached) || finished
                }
                if !finished, failure == nil, !Task.isCancelled, let chunk = nextChunk() { send(chunk) }
            }
            return (finished, failure)
        }
        if let failure { throw failure }
        return finished
    }

    /// The audience in order, two batches asked for at a time: the second waits in the
    /// store's queue while the first runs, so the writer goes from one to the next (and back
    /// from live writes) without waiting for this task. Each batch reads the cursor the one
    /// before left.
    private func serveRest(_ id: String, reached: inout Int) async throws {
        try await withThrowingTaskGroup(of: FanOut.self) { group in
            let batch = { @Sendable [store, clock, batchSize] in
                try await store.fanOut(campaign: id, first: [], limit: batchSize, delivering: [], now: clock.now())
            }
            group.addTask(operation: batch)
            group.addTask(operation: batch)
            while let finished = try await group.next() {
                if done(id, finished, reached: &reached) || Task.isCancelled {
                    group.cancelAll()
                    return
                }
                group.addTask(operation: batch)
            }
        }
    }

    /// Wakes the polls of the sessions `batch` queued for; whether it finished the campaign.
    private func done(_ id: String, _ batch: FanOut, reached: inout Int) -> Bool {
        reached += batch.queued.count
        for session in batch.queued { polls.notify(session) }
        if !batch.queued.isEmpty { polls.feed.notify() }
        guard batch.finished else { return false }
        logger.info("campaign fanned out", metadata: ["campaign": "\(id)", "queued": "\(reached)"])
        return true
    }
}
