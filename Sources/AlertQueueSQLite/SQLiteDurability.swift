/// What an acknowledged write of the SQLite store survives.
public enum SQLiteDurability: String, Sendable, CaseIterable {
    /// A crash of the process and of the machine (power, kernel): every commit is flushed to
    /// the disk before it is answered, by `WALSync` off the writer's thread (the connection
    /// itself commits at `synchronous=NORMAL`). The commits made during a flush share the
    /// next, so the cost is one flush per batch, not per write.
    case full
    /// A crash of the process only: a commit is in the operating system's cache when it is
    /// answered (`synchronous=NORMAL`), and losing the machine may take back the last ones.
    case process

    /// The `PRAGMA synchronous` value it stands for, in WAL mode.
    var synchronous: String {
        switch self {
        case .full: "FULL"
        case .process: "NORMAL"
        }
    }
}
