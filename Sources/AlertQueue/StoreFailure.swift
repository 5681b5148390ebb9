/// Why a store could not serve a call: what `/readyz` reports, and the `reason` label of
/// `alertd_store_errors_total`. Every one is answered 503 `store-unavailable`: the call may be
/// tried again, and nothing it asked for was acknowledged.
public enum StoreFailure: String, Sendable, CaseIterable {
    /// The store did not answer (a database server down, a pool with no connection).
    case unreachable
    /// The disk (or the database's own size limit) is full.
    case diskFull = "disk-full"
    /// The operating system reported an I/O error, or the file is damaged.
    case ioError = "io-error"
    /// The file or its folder became read-only.
    case readOnly = "read-only"
    /// A call waited longer than `--store-timeout`: a stalled disk, a lock held elsewhere.
    case timeout
    /// The database file was deleted or replaced under the running server: writes would go
    /// nowhere, so none is taken until a restart.
    case replaced

    /// What a person reading `/readyz` or a log is told.
    public var explanation: String {
        switch self {
        case .unreachable: "The queue store cannot be reached."
        case .diskFull: "The queue store's disk is full."
        case .ioError: "The queue store reported an I/O error."
        case .readOnly: "The queue store's file is read-only."
        case .timeout: "The queue store did not answer in time."
        case .replaced: "The queue store's file was deleted or replaced while the server ran; restart the server."
        }
    }
}
