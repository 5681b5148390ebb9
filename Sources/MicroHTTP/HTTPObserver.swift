import Synchronization

/// Told about every request once it is over: answered and sent, with what it cost; and, once,
/// of the counts the server keeps as it runs (`attach(_:)`), to report them.
///
/// The server calls `finished(_:)` on its worker thread after the response went out (for a
/// request that waited, after its promise was fulfilled), so an observer must be quick and must
/// not block: count with atomics, format a log line, write it. A request whose client went away
/// before any answer was queued is not reported.
///
/// ```swift
/// struct CountRequests: HTTPObserver {
///     let served = Atomic<Int>(0)  // in a class, in practice
///     func finished(_ request: FinishedRequest) {
///         served.add(1, ordering: .relaxed)
///     }
/// }
/// let server = try HTTPServer(configuration: .init(port: 0), handler: handler, observer: CountRequests())
/// ```
public protocol HTTPObserver: Sendable {
    /// One finished request.
    func finished(_ request: FinishedRequest)
    /// The server's counts, handed over once when the server starts. Default: ignored.
    func attach(_ counts: HTTPServerCounts)
}

extension HTTPObserver {
    public func attach(_ counts: HTTPServerCounts) {}
}

/// What a server counts while it runs: read at any time, from any thread.
public final class HTTPServerCounts: Sendable {
    /// Requests between their head read and their end (answered, or their client gone).
    let inFlight = Atomic<Int>(0)

    init() {}

    /// Requests whose head was read and that are not over yet, suspended ones included.
    public var requestsInFlight: Int { inFlight.load(ordering: .relaxed) }
}

/// What an observer learns of one finished request.
public struct FinishedRequest: Sendable {
    /// The method as sent.
    public var method: String
    /// The percent-decoded path, without the query string (which may carry anything a client
    /// typed). Empty when the request was refused before its path could be read.
    public var path: String
    /// The status sent.
    public var status: Int
    /// Bytes of the response body (before HEAD drops it).
    public var bodyBytes: Int
    /// From the first byte of the head seen to the response sent, in nanoseconds.
    public var nanoseconds: UInt64
    /// The request's `X-Request-Id`: the client's, or one made for it (see `RequestID`).
    public var requestID: String
    /// The `HTTPResponse.route` the handler put on its response; nil when it put none (a refusal,
    /// an unknown path).
    public var route: Int?

    public init(
        method: String, path: String, status: Int, bodyBytes: Int, nanoseconds: UInt64, requestID: String, route: Int?
    ) {
        self.method = method
        self.path = path
        self.status = status
        self.bodyBytes = bodyBytes
        self.nanoseconds = nanoseconds
        self.requestID = requestID
        self.route = route
    }
}
