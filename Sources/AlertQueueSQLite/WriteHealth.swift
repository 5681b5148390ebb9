import AlertQueue
import GRDB
import Locking
import Synchronization

/// The first store failure since the last write that succeeded: what `/readyz` reports until
/// a write (the readiness probe's own, if no other) succeeds again.
final class WriteHealth: Sendable {
    private let failure = Locked<QueueError?>(nil)
    /// Whether `failure` is set, read without its lock: every write that succeeds asks.
    private let failing = Atomic<Bool>(false)

    var firstFailure: QueueError? { failure.withLock { $0 } }

    func succeeded() {
        guard failing.load(ordering: .acquiring) else { return }
        failure.withLock { failure in
            failure = nil
            failing.store(false, ordering: .releasing)
        }
    }

    func failed(_ error: QueueError) {
        failure.withLock { failure in
            if failure == nil { failure = error }
            failing.store(true, ordering: .releasing)
        }
    }
}

extension QueueError {
    /// The store failure a SQLite error stands for; nil for an error that is not the store's
    /// (a broken constraint: a bug, answered 500).
    static func sqlite(_ error: DatabaseError) -> QueueError? {
        // GRDB's answer to a read begun after `close`: the store is gone, not broken.
        if error.resultCode == .SQLITE_MISUSE, error.message == "Connection is closed" {
            return .unavailable("the SQLite store is closed")
        }
        let failure: StoreFailure? =
            switch error.resultCode {
            case .SQLITE_FULL: .diskFull
            case .SQLITE_IOERR, .SQLITE_CORRUPT, .SQLITE_NOTADB, .SQLITE_CANTOPEN, .SQLITE_PROTOCOL: .ioError
            case .SQLITE_READONLY, .SQLITE_PERM, .SQLITE_AUTH: .readOnly
            case .SQLITE_BUSY, .SQLITE_LOCKED: .timeout
            default: nil
            }
        return failure.map { .storeFailed($0, error.description) }
    }
}
