import AlertQueue
import GRDB
import Locking

/// The first store failure since the last write that succeeded: what `/readyz` reports until
/// a write (the readiness probe's own, if no other) succeeds again.
final class WriteHealth: Sendable {
    private let failure = Locked<QueueError?>(nil)

    var firstFailure: QueueError? { failure.withLock { $0 } }

    func succeeded() {
        failure.withLock { $0 = nil }
    }

    func failed(_ error: QueueError) {
        failure.withLock { if $0 == nil { $0 = error } }
    }
}

extension QueueError {
    /// The store failure a SQLite error stands for; nil for an error that is not the store's
    /// (a broken constraint: a bug, answered 500).
    static func sqlite(_ error: DatabaseError) -> QueueError? {
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
