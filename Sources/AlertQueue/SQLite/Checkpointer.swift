import Dispatch
import GRDB

/// Copies the WAL's pages into the database file in the background, so that commits do not.
///
/// SQLite checkpoints a WAL by itself at the commit that takes it past 1,000 pages, on the
/// committing connection: that commit, and every write queued behind it, waits while pages are
/// copied and the files synced (measured under 32 connections of enqueues: p99 13-15 ms
/// against 7-9 ms without, 9,000 enqueues/s against 10,700). The store turns that off
/// (`PRAGMA wal_autocheckpoint = 0`) and runs this instead: every `interval`, a PASSIVE
/// checkpoint on a connection of its own, which takes no lock a writer or a reader needs.
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

    private let connection: DatabaseQueue
    private let restartFrames: Int
    private let requestCatchUp: @Sendable () -> Void
    /// Dispatch sources are thread-safe; they are just not marked `Sendable` on Linux.
    nonisolated(unsafe) private let timer: any DispatchSourceTimer

    /// Opens a connection to the database at `path` and checkpoints every `interval`.
    init(
        path: String, configuration: Configuration, interval: DispatchTimeInterval = .milliseconds(100),
        restartFrames: Int = Checkpointer.restartFrames, requestCatchUp: @escaping @Sendable () -> Void
    ) throws {
        connection = try DatabaseQueue(path: path, configuration: configuration)
        self.restartFrames = restartFrames
        self.requestCatchUp = requestCatchUp
        timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "alertd.sqlite-checkpoint"))
        timer.schedule(deadline: .now() + interval, repeating: interval)
        timer.setEventHandler { [weak self] in self?.checkpoint() }
        timer.resume()
    }

    /// One PASSIVE checkpoint; a failure (the disk full) is left for the next.
    func checkpoint() {
        guard let (frames, _) = try? connection.writeWithoutTransaction({ db in try db.checkpoint(.passive) }) else { return }
        if frames > restartFrames { requestCatchUp() }
    }

    /// Stops checkpointing and closes the connection.
    func stop() {
        timer.cancel()
        try? connection.close()
    }

    deinit { timer.cancel() }
}
