import AlertQueue
import Glibc
import Synchronization

/// The database file as the store opened it (device and inode), to notice when its path comes
/// to name another file, or none: a commit then goes to a file nobody will open again. Once
/// noticed, it stays noticed until a restart.
final class StoreFile: Sendable {
    let path: String
    private let device: UInt64
    private let inode: UInt64
    private let replaced = Atomic<Bool>(false)

    /// The file at `path` now; nil when there is none (an in-memory database).
    init?(path: String) {
        guard let identity = Self.identity(of: path) else { return nil }
        self.path = path
        (device, inode) = identity
    }

    /// nil while `path` names the file that was opened; else the failure, for good.
    func check() -> QueueError? {
        if !replaced.load(ordering: .relaxed) {
            guard let now = Self.identity(of: path), now == (device, inode) else {
                replaced.store(true, ordering: .relaxed)
                return failure
            }
            return nil
        }
        return failure
    }

    private var failure: QueueError {
        .storeFailed(.replaced, "\(path) was deleted or replaced after the store opened it")
    }

    private static func identity(of path: String) -> (UInt64, UInt64)? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        return (UInt64(status.st_dev), UInt64(status.st_ino))
    }
}
