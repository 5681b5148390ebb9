import AlertQueue
import Foundation
import GRDB
import GRDBSQLite
import Locking

/// Copies the WAL's pages into the database file in the background, so that commits do not.
///
/// SQLite checkpoints a WAL by itself at the commit that takes it past 1,000 pages, on the
/// committing connection: that commit, and every write queued behind it, waits while pages are
/// copied and the files synced (measured under 32 connections of enqueues: p99 13-15 ms
/// against 7-9 ms without, 9,000 enqueues/s against 10,700). The store turns that off and runs
/// this instead: every `interval`, a PASSIVE checkpoint on a connection of its own, which takes
/// no lock a writer or a reader needs, once the writer's commits (`WALProgress`) have put
/// `minimumFrames` pages in the WAL that no checkpoint copied yet.
///
/// Why wait for pages: once a checkpoint has copied the whole WAL, the next commit starts the
/// WAL again from its beginning, and SQLite syncs the new WAL header to disk before that commit
/// returns (an fdatasync, 0.35 ms in a `perf trace` here, on the thread that commits).
/// Checkpointing every interval whatever the WAL held made a lightly loaded server pay it on the
/// first commit after each checkpoint. Measured with one long-poll woken by one enqueue every
/// 15 ms or so (300 rounds, five alternating pairs of release builds): the enqueue's answer
/// p90 1.03–1.54 ms against 1.15–2.26, the woken poll's p99 2.3–4.5 ms against 2.9–5.4. Beside
/// 10,000 waiting polls the figures do not move: libmicrohttpd's resume costs more there.
/// Under load the threshold is reached within a few intervals, so checkpoints still come every
/// few hundred milliseconds (enqueues per second unchanged beyond the noise).
///
/// Writes that never pause keep appending while a passive checkpoint copies, so the WAL is
/// never wholly copied and never starts again from its beginning. Past `restartFrames` pages
/// the checkpointer asks the writer (`requestCatchUp`) to run one more passive checkpoint
/// between two transactions: no write can append meanwhile, it copies the few pages left, and
/// the next transaction starts the WAL again from its beginning.
///
/// Checkpoints change where committed pages live, never whether they are committed: a crash
/// at any moment loses nothing the WAL holds.
final class Checkpointer: Sendable {
    /// WAL pages past which the writer is asked to catch up, by default: 16,384, 64 MiB.
    static let restartFrames = 16_384
    /// WAL pages not yet copied from which a checkpoint runs, by default: 4,096, 16 MiB.
    static let minimumFrames = 4_096

    private let connection: DatabaseQueue
    private let progress: WALProgress
    private let minimumFrames: Int
    private let restartFrames: Int
    private let requestCatchUp: @Sendable () -> Void
    /// Every `interval`, on `clock`: set once in `init`, set again after each checkpoint.
    private let timer = Locked<(any AlertTimer)?>(nil)
    private let clock: any AlertClock
    private let interval: TimeInterval

    /// Opens a connection to the database at `path` and, every `interval`, checkpoints what the
    /// writer's commits told `progress` once it is `minimumFrames` pages or more.
    init(
        path: String, configuration: Configuration, progress: WALProgress, clock: any AlertClock, interval: TimeInterval = 0.1,
        minimumFrames: Int = Checkpointer.minimumFrames, restartFrames: Int = Checkpointer.restartFrames,
        requestCatchUp: @escaping @Sendable () -> Void
    ) throws {
        connection = try DatabaseQueue(path: path, configuration: configuration)
        self.progress = progress
        self.clock = clock
        self.interval = interval
        self.minimumFrames = minimumFrames
        self.restartFrames = restartFrames
        self.requestCatchUp = requestCatchUp
        let made = clock.makeTimer { [weak self] in self?.tick() }
        timer.withLock { $0 = made }
        made.schedule(at: clock.now().addingTimeInterval(interval), leeway: .milliseconds(10))
    }

    /// The timer's firing: a checkpoint if one is due, and the next firing set.
    private func tick() {
        checkpoint()
        let next = clock.now().addingTimeInterval(interval)
        timer.withLock { $0?.schedule(at: next, leeway: .milliseconds(10)) }
    }

    /// One PASSIVE checkpoint, if the WAL holds enough pages not yet copied; a failure (the disk
    /// full) is left for the next.
    func checkpoint() {
        guard progress.uncopiedFrames >= minimumFrames,
            let (frames, copied) = try? connection.writeWithoutTransaction({ db in try db.checkpoint(.passive) })
        else { return }
        progress.checkpointed(copied: copied, of: frames)
        if frames > restartFrames { requestCatchUp() }
    }

    /// Stops checkpointing and closes the connection.
    func stop() {
        timer.withLock { $0?.cancel() }
        try? connection.close()
    }

    deinit { timer.withLock { $0?.cancel() } }
}

/// How many pages the WAL holds that no checkpoint copied yet, as the writer's commits tell it
/// (`sqlite3_wal_hook`) and the checkpoints answer.
///
/// `watch(_:)` installs the hook on a connection. That replaces SQLite's own checkpoint at
/// 1,000 pages, which is that same hook (`PRAGMA wal_autocheckpoint` sets it): once watched,
/// a connection never checkpoints on commit. Keep the object alive as long as the connections
/// it watches: the hook holds it unretained (a `prepareDatabase` closure that captures it does).
final class WALProgress: Sendable {
    private struct Counts {
        /// Pages in the WAL after the last commit.
        var frames = 0
        /// Of those, pages a checkpoint copied.
        var copied = 0
    }

    private let counts = Locked(Counts())

    /// Pages committed to the WAL that no checkpoint copied yet.
    var uncopiedFrames: Int {
        counts.withLock { max(0, $0.frames - $0.copied) }
    }

    /// On the writer's thread, after each commit: the WAL now holds `frames` pages. Fewer than
    /// before means it started again from its beginning, with nothing of it copied.
    func committed(frames: Int) {
        counts.withLock { counts in
            if frames < counts.frames { counts.copied = 0 }
            counts.frames = frames
        }
    }

    /// A checkpoint copied the first `copied` of the WAL's `frames` pages.
    func checkpointed(copied: Int, of frames: Int) {
        counts.withLock { counts in
            // A WAL that started again since has nothing copied; a commit that reported more
            // pages meanwhile keeps its count.
            guard frames <= counts.frames else { return }
            counts.copied = copied
        }
    }

    /// Has `db` report its commits here (and no longer checkpoint on commit).
    func watch(_ db: Database) {
        sqlite3_wal_hook(
            db.sqliteConnection,
            { context, _, _, frames in
                Unmanaged<WALProgress>.fromOpaque(context!).takeUnretainedValue().committed(frames: Int(frames))
                return SQLITE_OK
            },
            Unmanaged.passUnretained(self).toOpaque())
    }
}
