import CMicroHTTPD
import Glibc

/// What alertd keeps per connection, as MHD's socket context: made when the connection starts,
/// released when it closes. Only the connection's worker thread touches it, except `progress`
/// and the reaper's notes, which `RequestDeadlines` reads from its own thread.
final class ConnectionState: @unchecked Sendable {
    /// The last shared-bytes response, sent again when asked for again (see `ConnectionResponse`).
    let kept = ConnectionResponse()
    /// The connection's socket, for the deadline reaper's `shutdown` and its byte count.
    let socket: Int32
    /// What the request line of the current request held before MHD decoded it.
    var target = RawTarget()
    /// The client prefix counted against the per-client limit, when counted.
    var client: ClientKey?
    /// The current request's phase, for the deadlines.
    let progress = RequestProgress()

    // The deadline reaper's own notes on the current phase (its thread only; see `RequestDeadlines`).
    var notedGeneration: UInt64 = 0
    /// Bytes the socket had received when the connection began waiting for a head; nil while unknown.
    var notedBaseline: UInt64? = 0
    /// When the first byte of the awaited head was seen (monotonic nanoseconds).
    var notedHeadStart: UInt64?

    init(socket: Int32) {
        self.socket = socket
    }
}

/// MHD's connection callback, on the connection's worker thread: a new connection gets a
/// `ConnectionState` (counted against its client's limit, watched by the deadlines); a closed
/// one is forgotten and released, before MHD closes its socket.
func microHTTPConnectionNotify(
    cls: UnsafeMutableRawPointer?,
    connection: OpaquePointer?,
    socketContext: UnsafeMutablePointer<UnsafeMutableRawPointer?>?,
    event: MHD_ConnectionNotificationCode
) {
    guard let cls, let connection, let socketContext else { return }
    let core = Unmanaged<ServerCore>.fromOpaque(cls).takeUnretainedValue()
    switch event {
    case .CONNECTION_NOTIFY_STARTED:
        let state = ConnectionState(socket: alertd_mhd_connection_fd(connection))
        socketContext.pointee = Unmanaged.passRetained(state).toOpaque()
        // Counted by the accepting thread (see `Listener`); released when it closes.
        state.client = core.clients.started(state.socket)
        core.deadlines.watch(state)
    case .CONNECTION_NOTIFY_CLOSED:
        guard let pointer = socketContext.pointee else { return }
        socketContext.pointee = nil
        let state = Unmanaged<ConnectionState>.fromOpaque(pointer).takeRetainedValue()
        core.deadlines.forget(state)
        if let key = state.client { core.clients.release(key) }
    default:
        break
    }
}

/// The connection's `ConnectionState`.
func connectionState(of connection: OpaquePointer) -> ConnectionState? {
    alertd_mhd_socket_context(connection).map { Unmanaged<ConnectionState>.fromOpaque($0).takeUnretainedValue() }
}

/// The connection's kept response (see `ConnectionResponse`).
func connectionResponse(of connection: OpaquePointer) -> ConnectionResponse? {
    connectionState(of: connection)?.kept
}
