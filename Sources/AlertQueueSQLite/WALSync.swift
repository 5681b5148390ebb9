import AlertQueue
import Dispatch
import Glibc
import Locking

/// Makes commits durable off the writer's thread. With durability `full` the writer commits
/// without a flush (`synchronous = NORMAL`) and goes on with the next transaction, while this
/// flushes the WAL (`fdatasync`) and only then has the committed writes answered. One flush
/// covers every commit made before it began; commits made during a flush share the next one.
///
/// Why: a flush in the commit held the one writer for its whole length, and during a
/// campaign's fan-out the live commits' flushes took a quarter of the writer's time.
///
/// What a write survives is unchanged: it is answered after its commit is on disk, and a crash
/// of the machine may only take back commits not yet answered (the WAL is read back up to its
/// first incomplete frame, so never a later commit without an earlier one). Readers may see a
/// commit a moment before it is on disk, as they would see it a moment before its answer.
final class WALSync: Sendable {
    /// Called once a flush begun after it was asked for has ended: nil, or why it failed.
    typealias Done = @Sendable ((any Error)?) -> Void

    private struct State {
        var waiting: [Done] = []
        var flushing = false
        var descriptor: Int32?
        var closed = false
    }

    private let path: String
    private let state = Locked(State())
    private let queue = DispatchQueue(label: "alertd.sqlite.wal-sync", qos: .userInitiated)
    /// `fdatasync`, unless a test gives another.
    private let flush: @Sendable (Int32) -> Int32

    /// For the database at `path` (its WAL is `path-wal`).
    init(databasePath path: String, flush: @escaping @Sendable (Int32) -> Int32 = { fdatasync($0) }) {
        self.path = path + "-wal"
        self.flush = flush
    }

    /// Calls `done` after the next flush, which begins now or after the one under way.
    func afterFlush(_ done: @escaping Done) {
        let start = state.withLock { state -> Bool in
            state.waiting.append(done)
            guard !state.flushing else { return false }
            state.flushing = true
            return true
        }
        if start { queue.async { self.flushWhileAsked() } }
    }

    private func flushWhileAsked() {
        while true {
            let (waiting, descriptor) = state.withLock { state -> ([Done], Int32?) in
                let waiting = state.waiting
                state.waiting = []
                if waiting.isEmpty { state.flushing = false }
                if state.descriptor == nil, !state.closed {
                    let opened = open(path, O_RDONLY | O_CLOEXEC)
                    if opened >= 0 { state.descriptor = opened }
                }
                return (waiting, state.descriptor)
            }
            guard !waiting.isEmpty else { return }
            let failure: (any Error)?
            if let descriptor {
                failure = flush(descriptor) == 0 ? nil : QueueError.storeFailed(.ioError, "flushing \(path) failed (errno \(errno)); the write may yet be stored")
            } else {
                failure = QueueError.storeFailed(.ioError, "\(path) could not be opened to flush it; the write may yet be stored")
            }
            for done in waiting { done(failure) }
        }
    }

    /// Returns once the flushes asked for so far have ended and their writes were answered.
    func drain() {
        queue.sync {}
    }

    /// Waits for the flush under way, and lets the WAL go.
    func close() {
        queue.sync {
            state.withLock { state in
                state.closed = true
                if let descriptor = state.descriptor { _ = Glibc.close(descriptor) }
                state.descriptor = nil
            }
        }
    }
}
