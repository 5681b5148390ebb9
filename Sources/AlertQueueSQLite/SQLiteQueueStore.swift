import AlertQueue
import AlertSpec
import Foundation
import GRDB

/// Session queues in SQLite, through GRDB: the embedded default (`--store sqlite:PATH`), and
/// the in-memory store (`--store memory`) with the same code and the same semantics.
///
/// Every method is one write transaction (IMMEDIATE, so writers queue up rather than race, even
/// from another store on the same file): it reads the window of the session's items the step can
/// touch, through indexes (`SessionWindow`), lets `QueuePolicy` decide, and writes what changed
/// before it returns. Writes run on the writer's thread, many
/// to a commit (`WriteBatcher`), durable as `SQLiteDurability` says.
///
/// A store failure (a full disk, an I/O error, a read-only file, a write waiting past the
/// timeout, the file deleted or replaced) is thrown as `QueueError.storeFailed`, and
/// `readiness()` reports the first one until a write succeeds again.
///
/// ```swift
/// let store = try SQLiteQueueStore(path: "alertd.sqlite", settings: QueueSettings())
/// let queued = try await store.enqueue(newItem, now: .now)
/// let shown = try await store.next(session: "s1", now: .now)
/// ```
public struct SQLiteQueueStore: EnqueueAndTakeNext {
    let writer: any DatabaseWriter
    /// Every write goes through it, on the writer's thread, grouped into one commit under load.
    let batcher: WriteBatcher
    public let policy: QueuePolicy
    let contents = ContentCache()
    let sequences: SequenceMemo
    /// Event ids: increasing, and never given twice (see `EventRecord`).
    let eventIDs: SequenceMemo
    /// The events committed lately, for the outcome roll-up.
    let recentOutcomes = RecentOutcomes()
    /// Checkpoints a file's WAL in the background (none in memory).
    private let checkpointer: Checkpointer?
    /// Flushes commits off the writer's thread, with durability `full` (see `WALSync`).
    let sync: WALSync?
    /// The file opened (none in memory), checked after every commit.
    private let file: StoreFile?
    /// The first failure since the last write that succeeded.
    let health = WriteHealth()
    /// Whether the file holds a pacing profile: until one is stored, a step reads none.
    let profilesKept = ProfilesKept()
    /// Free pages a purge batch hands back to the file system, at most (see `StoreSpace`).
    let vacuumPages: Int

    /// Opens (or creates) the database at `path`, in WAL mode, and migrates it. Its WAL is
    /// checkpointed in the background, not by commits (see `Checkpointer`). `clock` times the
    /// background checkpoints and the writes' `timeout`.
    public init(
        path: String, settings: QueueSettings = QueueSettings(), durability: SQLiteDurability = .full,
        timeout: Duration = .seconds(5), clock: any AlertClock = SystemClock()
    ) throws {
        try self.init(
            path: path, settings: settings, durability: durability, timeout: timeout, clock: clock,
            minimumFrames: Checkpointer.minimumFrames)
    }

    /// A file store whose WAL is checkpointed from `minimumFrames` pages and starts again past
    /// `restartFrames`, is cut back to `journalSizeLimit` bytes when it does, and whose purges
    /// free up to `vacuumPages` pages each (tests make them small).
    init(
        path: String, settings: QueueSettings, durability: SQLiteDurability = .full, timeout: Duration = .seconds(5),
        clock: any AlertClock = SystemClock(), minimumFrames: Int = Checkpointer.minimumFrames,
        restartFrames: Int = Checkpointer.restartFrames, journalSizeLimit: Int = StoreSpace.journalSizeLimit,
        vacuumPages: Int = StoreSpace.vacuumPages
    ) throws {
        // The writer's commits report to `progress` instead of checkpointing (see `Checkpointer`);
        // the pool keeps this closure, and with it `progress`, as long as its connections.
        let progress = WALProgress()
        var configuration = Self.configuration(durability: durability, journalSizeLimit: journalSizeLimit)
        configuration.prepareDatabase { db in progress.watch(db) }
        let pool = try DatabasePool(path: path, configuration: configuration)
        // GRDB sets `synchronous = NORMAL` on the writer once it has turned WAL on, after the
        // configuration's own setup. With durability `full` the writer commits without a flush
        // and `WALSync` flushes off its thread before the writes are answered.
        let sync = durability == .full ? WALSync(databasePath: path) : nil
        try pool.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA synchronous = \(sync == nil ? durability.synchronous : SQLiteDurability.process.synchronous)")
        }
        let file = StoreFile(path: path)
        let batcher = WriteBatcher(writer: pool, clock: clock, timeout: timeout, verify: { file?.check() }, sync: sync)
        let checkpointer = try Checkpointer(
            path: path, configuration: Self.configuration(durability: durability, journalSizeLimit: journalSizeLimit),
            progress: progress, clock: clock,
            minimumFrames: minimumFrames, restartFrames: restartFrames
        ) {
            batcher.requestCatchUp()
        }
        try self.init(
            writer: pool, batcher: batcher, settings: settings, checkpointer: checkpointer, sync: sync, file: file,
            vacuumPages: vacuumPages)
    }

    /// A store in memory: gone with the process, otherwise the same as a file.
    public static func inMemory(settings: QueueSettings = QueueSettings()) throws -> SQLiteQueueStore {
        try SQLiteQueueStore(writer: DatabaseQueue(configuration: configuration(durability: .process)), settings: settings)
    }

    init(
        writer: any DatabaseWriter, batcher: WriteBatcher? = nil, settings: QueueSettings, checkpointer: Checkpointer? = nil,
        sync: WALSync? = nil, file: StoreFile? = nil, vacuumPages: Int = StoreSpace.vacuumPages
    ) throws {
        self.writer = writer
        self.vacuumPages = vacuumPages
        let batcher = batcher ?? WriteBatcher(writer: writer)
        self.batcher = batcher
        sequences = SequenceMemo(stored: ItemRecord.lastSequence, transactionEnd: batcher.transactionEnd)
        eventIDs = SequenceMemo(stored: EventRecord.lastID, transactionEnd: batcher.transactionEnd)
        self.checkpointer = checkpointer
        self.sync = sync
        self.file = file
        self.policy = QueuePolicy(settings: settings)
        try StoreSpace.vacuumIncrementallyIfNew(writer)
        try Self.migrator.migrate(writer)
        if try writer.read({ db in try ProfileRecord.any(in: db) }) { profilesKept.set() }
    }

    static func configuration(durability: SQLiteDurability, journalSizeLimit: Int = StoreSpace.journalSizeLimit) -> Configuration {
        var configuration = Configuration()
        // Another store instance or process on the same file may hold the write lock for a moment.
        configuration.busyMode = .timeout(10)
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = \(durability.synchronous)")
            // The WAL is cut back to this size each time it starts again after a checkpoint.
            try db.execute(sql: "PRAGMA journal_size_limit = \(journalSizeLimit)")
            // Statement journals (and temporary tables) in memory: spilled to a file past 64 KiB,
            // they cost a system call per page changed.
            try db.execute(sql: "PRAGMA temp_store = MEMORY")
        }
        return configuration
    }

    /// Once the flushes under way have answered their writes, closes the readers not in use
    /// (they open again when needed).
    func closeIdleReaders() {
        sync?.drain()
        (writer as? DatabasePool)?.releaseMemory()
    }

    /// Closes the database, its readers first: the last connection to close checkpoints the
    /// file and removes its WAL, which a read-only one cannot. A batch running now commits and
    /// is answered; reads and writes after it fail with `QueueError.unavailable`.
    public func close() throws {
        checkpointer?.stop()
        batcher.close()
        closeIdleReaders()
        try writer.close()
        sync?.close()
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

    /// A session with no live item has nothing to deliver and nothing to change: most polls
    /// find it so, and learn it from a snapshot read on their own thread instead of waiting
    /// their turn at the writer (10,000 polls arriving at once otherwise queued there, each task
    /// holding its async stack). An enqueue committed just after the read notifies the poll's
    /// session, which wakes it.
    public func next(session: String, now: Date) async throws -> QueueItem? {
        guard try read({ db in try ItemRecord.hasLive(db, session: session) }) else { return nil }
        return try await write { db in try self.deliverNext(session: session, now: now, in: db) }
    }

    public func acknowledge(
        session: String, ticket: String, input: String?, now: Date, answer: @escaping @Sendable (QueueItem) throws -> AckAnswer
    ) async throws -> Acknowledgement {
        try await write { db in
            var window = try SessionWindow(session: session, now: now, in: db, contents: contents)
            try window.readTicket(ticket)
            let loaded = try policy.acknowledged(ticket: ticket, in: window.sessionItems())
            let answered = try answer(loaded)
            let chained = try answered.chain.map {
                policy.makeItem($0, ticket: QueueTicket.make(at: now), sequence: try sequences.next(in: db), now: now)
            }
            if let chained {
                try window.readHolder(of: chained.dedupeKey)
                if chained.lane == .hud { try window.readQueuedHUDs() }
            }
            var items = window.sessionItems()
            var acknowledgement = try policy.acknowledge(
                ticket: ticket, chain: chained, input: input, action: answered.action, role: answered.role, in: &items, now: now)
            try save(items, in: db)
            // The first answer of a group takes its other copies back.
            if let group = loaded.group, loaded.state.isLive {
                acknowledgement.takenBack = try takeBack(group: group, answered: ticket, now: now, in: db)
            }
            return acknowledgement
        }
    }

    public func items(session: String, now: Date) async throws -> [QueueItem] {
        try await write { db in
            var items = try load(session: session, scope: .listed, in: db)
            let listing = policy.listing(&items, now: now)
            try save(items, in: db)
            return listing
        }
    }

    /// Read beside the writer, so not through `contents`, which only the writer's thread fills:
    /// a read of a snapshot from before a refresh could otherwise keep the content it replaced.
    public func item(session: String, ticket: String) async throws -> QueueItem? {
        try read { db in try ItemRecord.fetch(db, session: session, ticket: ticket, contents: ContentCache(limit: 0)) }
    }

    public func timeline(session: String, ticket: String) async throws -> [StoredEvent] {
        try read { db in try EventRecord.timeline(session: session, ticket: ticket, in: db) }
    }

    public func history(session: String, before: HistoryCursor?, limit: Int) async throws -> HistoryPage {
        try read { db in try EventRecord.history(session: session, before: before, limit: limit, in: db) }
    }

    public func events(after cursor: EventCursor?, limit: Int) async throws -> EventPage {
        try read { db in try EventRecord.feed(after: cursor, limit: limit, in: db) }
    }

    public func cancel(session: String, ticket: String?, by cause: CancelCause, now: Date) async throws -> Int {
        try await write { db in
            var items: SessionItems
            if let ticket {
                var window = try SessionWindow(session: session, now: now, in: db, contents: contents)
                try window.readTicket(ticket)
                items = window.sessionItems()
            } else {
                items = try load(session: session, scope: .live, in: db)
            }
            let cancelled = try policy.cancel(ticket: ticket, by: cause, in: &items, now: now)
            try save(items, in: db)
            return cancelled
        }
    }

    public func hold(session: String, until: Date?) async throws {
        try await write { db in
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

    /// Not ready while the file is replaced, while a transaction runs past the timeout, or
    /// after a failed write until one succeeds: the probe's own, a row of a few KiB inserted
    /// and deleted in one transaction (so a disk with room for nothing fails it).
    public func readiness() async -> QueueError? {
        if let replaced = file?.check() { return replaced }
        if let since = batcher.stalledSince {
            return .storeFailed(.timeout, "a transaction has run since \(since)")
        }
        if health.firstFailure != nil {
            do {
                try await write { db in
                    try db.execute(sql: "INSERT INTO probe (data) VALUES (zeroblob(8192))")
                    try db.execute(sql: "DELETE FROM probe")
                }
            } catch let error as QueueError {
                return error
            } catch {
                return .storeFailed(.ioError, String(describing: error))
            }
        }
        return await isReachable() ? nil : .unavailable("the database cannot be read")
    }

    /// Read from a snapshot, beside the writers; `items_census_live` covers the query.
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
    func read<T>(_ body: (Database) throws -> T) throws -> T {
        do {
            return try writer.unsafeRead(body)
        } catch let error as DatabaseError {
            throw QueueError.sqlite(error) ?? error
        }
    }

    /// Runs `body` as one write (see `WriteBatcher`), a background one when `background`; a
    /// store failure is thrown as a `QueueError`, and noted until a write succeeds.
    func write<T: Sendable>(background: Bool = false, _ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        do {
            let value = try await background ? batcher.writeInBackground(body) : batcher.write(body)
            health.succeeded()
            return value
        } catch let error as QueueError where error.storeFailure != nil {
            health.failed(error)
            throw error
        } catch let error as DatabaseError {
            guard let failure = QueueError.sqlite(error) else { throw error }
            health.failed(failure)
            throw failure
        }
    }
}
