import AlertQueue
import Foundation
import GRDB

/// Session queues in SQLite, through GRDB: the embedded default (`--store sqlite:PATH`), and
/// the in-memory store (`--store memory`) with the same code and the same semantics.
///
/// Every method is one write transaction (IMMEDIATE, so writers queue up rather than race, even
/// from another store on the same file): it loads the session's live items, lets `QueuePolicy`
/// decide, and writes what changed before it returns.
///
/// ```swift
/// let store = try SQLiteQueueStore(path: "alertd.sqlite", settings: QueueSettings())
/// let queued = try await store.enqueue(newItem, now: .now)
/// let shown = try await store.next(session: "s1", now: .now)
/// ```
public struct SQLiteQueueStore: EnqueueAndTakeNext {
    private let writer: any DatabaseWriter
    /// Every write goes through it: inline when alone, grouped into one commit under load.
    let batcher: WriteBatcher
    public let policy: QueuePolicy
    private let contents = ContentCache()
    let sequences = SequenceMemo()
    /// Checkpoints a file's WAL in the background (none in memory).
    private let checkpointer: Checkpointer?

    /// Opens (or creates) the database at `path`, in WAL mode, and migrates it. Its WAL is
    /// checkpointed in the background, not by commits (see `Checkpointer`).
    /// `clock` times the background checkpoints.
    public init(path: String, settings: QueueSettings = QueueSettings(), clock: any AlertClock = SystemClock()) throws {
        try self.init(path: path, settings: settings, clock: clock, minimumFrames: Checkpointer.minimumFrames)
    }

    /// A file store whose WAL is checkpointed from `minimumFrames` pages and starts again past
    /// `restartFrames` (tests make them small).
    init(
        path: String, settings: QueueSettings, clock: any AlertClock = SystemClock(), minimumFrames: Int = Checkpointer.minimumFrames,
        restartFrames: Int = Checkpointer.restartFrames
    ) throws {
        // The writer's commits report to `progress` instead of checkpointing (see `Checkpointer`);
        // the pool keeps this closure, and with it `progress`, as long as its connections.
        let progress = WALProgress()
        var configuration = Self.configuration()
        configuration.prepareDatabase { db in progress.watch(db) }
        let pool = try DatabasePool(path: path, configuration: configuration)
        let batcher = WriteBatcher(writer: pool)
        let checkpointer = try Checkpointer(
            path: path, configuration: Self.configuration(), progress: progress, clock: clock, minimumFrames: minimumFrames,
            restartFrames: restartFrames
        ) {
            batcher.requestCatchUp()
        }
        try self.init(writer: pool, batcher: batcher, settings: settings, checkpointer: checkpointer)
    }

    /// A store in memory: gone with the process, otherwise the same as a file.
    public static func inMemory(settings: QueueSettings = QueueSettings()) throws -> SQLiteQueueStore {
        try SQLiteQueueStore(writer: DatabaseQueue(configuration: configuration()), settings: settings)
    }

    init(writer: any DatabaseWriter, batcher: WriteBatcher? = nil, settings: QueueSettings, checkpointer: Checkpointer? = nil) throws {
        self.writer = writer
        self.batcher = batcher ?? WriteBatcher(writer: writer)
        self.checkpointer = checkpointer
        self.policy = QueuePolicy(settings: settings)
        try Self.migrator.migrate(writer)
    }

    static func configuration() -> Configuration {
        var configuration = Configuration()
        // Another store instance or process on the same file may hold the write lock for a moment.
        configuration.busyMode = .timeout(10)
        configuration.prepareDatabase { db in
            // WAL with synchronous NORMAL: a commit is written to the WAL before `write` returns,
            // so it survives a crash of the process; only losing the machine (power, kernel) may
            // take back the last commits, which is the durability the queue promises. FULL would
            // add an fsync to every commit.
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
        }
        return configuration
    }

    /// Closes the database; the store cannot be used afterwards.
    public func close() throws {
        checkpointer?.stop()
        try writer.close()
    }

    // MARK: - QueueStore

    public func enqueue(_ item: NewItem, now: Date) async throws -> EnqueueResult {
        try await enqueue(item, now: now, seeingLiveItems: true, delivering: false).enqueued
    }

    /// One transaction where an enqueue and the `next` after it took two: the items the enqueue
    /// loaded are delivered from, and written once.
    public func enqueueAndTakeNext(_ item: NewItem, now: Date) async throws -> (enqueued: EnqueueResult, delivered: QueueItem?) {
        try await enqueue(item, now: now, seeingLiveItems: true, delivering: true)
    }

    /// Writes waiting for the writer from which `next` first checks a snapshot. A few waiting
    /// writes are a busy queue, where the check mostly finds items and only costs a read;
    /// thousands are a storm of polls. Measured with scripts/bench-queue.sh: checking whenever
    /// the writer was busy, 3,500-3,800 cycles/s and 6.4 KiB per waiting poll; from 4 waiting,
    /// 4,100-4,300 and 6.5 KiB; from 16, 4,500-5,000 and 7.7-8.4 KiB (past the 8 KiB goal).
    static let backlogForSnapshotChecks = 4

    /// A session with no live item has nothing to deliver and nothing to change: most polls
    /// find it so. When many writes wait for the writer they learn it from a snapshot read
    /// beside it instead of waiting their turn (10,000 polls arriving at once otherwise queued
    /// there, each task holding its async stack). An enqueue committed just after the read
    /// notifies the poll's session, which wakes it. An idle writer runs the step at once, on
    /// this thread.
    public func next(session: String, now: Date) async throws -> QueueItem? {
        if batcher.backlog >= Self.backlogForSnapshotChecks, try !read({ db in try ItemRecord.hasLive(db, session: session) }) {
            return nil
        }
        return try await batcher.write { db in
            var items = try load(session: session, scope: .live, in: db)
            let delivered = try deliver(from: &items, now: now, in: db)
            try save(items, in: db)
            return delivered
        }
    }

    public func acknowledge(
        session: String, ticket: String, now: Date, chain: @escaping @Sendable (QueueItem) throws -> NewItem?
    ) async throws -> Acknowledgement {
        try await batcher.write { db in
            var items = try load(session: session, with: ticket, in: db)
            let chained = try chain(try policy.acknowledged(ticket: ticket, in: items)).map {
                policy.makeItem($0, ticket: QueueTicket.make(at: now), sequence: try sequences.next(in: db), now: now)
            }
            let acknowledgement = try policy.acknowledge(ticket: ticket, chain: chained, in: &items, now: now)
            try save(items, in: db)
            return acknowledgement
        }
    }

    public func items(session: String, now: Date) async throws -> [QueueItem] {
        try await batcher.write { db in
            var items = try load(session: session, scope: .listed, in: db)
            let listing = policy.listing(&items, now: now)
            try save(items, in: db)
            return listing
        }
    }

    public func item(session: String, ticket: String) async throws -> QueueItem? {
        try read { db in try ItemRecord.fetch(db, session: session, ticket: ticket, contents: contents) }
    }

    public func cancel(session: String, ticket: String?, now: Date) async throws -> Int {
        try await batcher.write { db in
            var items =
                if let ticket {
                    try load(session: session, with: ticket, in: db)
                } else {
                    try load(session: session, scope: .live, in: db)
                }
            let cancelled = try policy.cancel(ticket: ticket, in: &items, now: now)
            try save(items, in: db)
            return cancelled
        }
    }

    public func hold(session: String, until: Date?) async throws {
        try await batcher.write { db in
            if let until {
                try HoldRecord(session: session, until: until.timeIntervalSince1970).insert(db, onConflict: .replace)
            } else {
                _ = try HoldRecord.deleteOne(db, key: session)
            }
        }
    }

    public func holdUntil(session: String, now: Date) async throws -> Date? {
        let until = try read { db in try HoldRecord.until(session: session, in: db) }
        let date = until.map(Date.init(timeIntervalSince1970:))
        return QueuePolicy.isHolding(until: date, now: now) ? date : nil
    }

    public func isReachable() async -> Bool {
        (try? read { db in try Int.fetchOne(db, sql: "SELECT 1") }) == 1
    }

    /// Read from a snapshot, beside the writers; `items_census` covers the query.
    public func census(now: Date) async throws -> QueueCensus {
        try read { db in
            var census = QueueCensus()
            let rows = try Row.fetchCursor(db, sql: ItemRecord.censusSQL, arguments: [now.timeIntervalSince1970])
            while let row = try rows.next() {
                census.add(lane: row[0], state: row[1], count: row[2])
            }
            return census
        }
    }
}

// MARK: - Steps

extension SQLiteQueueStore {
    /// Runs `body`, one statement, on a snapshot of the committed data, on the calling thread.
    ///
    /// A single statement reads one snapshot by itself, so no transaction is opened around it:
    /// GRDB's `read` has SQLite parse `BEGIN DEFERRED` and `COMMIT` for every call, which cost
    /// more than the statement itself in the hold check of every poll that waits (callgrind:
    /// 88,000 instructions a check). A read of several statements that must agree would need
    /// `writer.read`.
    private func read<T>(_ body: (Database) throws -> T) throws -> T {
        try writer.unsafeRead(body)
    }

    /// `next`'s step on the session's loaded `items`, under the session's hold.
    func deliver(from items: inout SessionItems, now: Date, in db: Database) throws -> QueueItem? {
        let holdUntil = try HoldRecord.until(session: items.session, in: db).map(Date.init(timeIntervalSince1970:))
        return policy.next(&items, holdUntil: holdUntil, now: now)
    }

    /// The session's items in `scope` (none for nil), for a step.
    func load(session: String, scope: ItemRecord.Scope?, in db: Database) throws -> SessionItems {
        let loaded = try scope.map { try ItemRecord.fetch(db, session: session, scope: $0, contents: contents) } ?? []
        return SessionItems(session: session, items: loaded)
    }

    /// The session's live items, and `ticket` if it is one of the session's other items.
    func load(session: String, with ticket: String, in db: Database) throws -> SessionItems {
        var loaded = try ItemRecord.fetch(db, session: session, scope: .live, contents: contents)
        if !loaded.contains(where: { $0.ticket == ticket }),
            let other = try ItemRecord.fetch(db, session: session, ticket: ticket, contents: contents)
        {
            loaded.append(other)
        }
        return SessionItems(session: session, items: loaded)
    }

    /// Writes a step's changes: updates first (they may free a dedupe key), then inserts. A step
    /// changes only the state, deliveries and lease of the items it loaded (see `SessionItems`).
    func save(_ items: SessionItems, in db: Database) throws {
        for item in items.updated {
            try ItemRecord.updateProgress(of: item, in: db)
        }
        for item in items.inserted {
            try ItemRecord(item, contents: contents).insertRow(db)
        }
    }
}
