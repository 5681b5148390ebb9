/// What a server calls for every complete request.
///
/// Handlers run on the server's worker threads and must not block for long: answer with
/// `.respond` when the response is ready now, or with `.later` to suspend the connection (no
/// thread is held) and fulfil the promise from any thread when the answer exists — a long-poll.
///
/// ```swift
/// struct Hello: HTTPHandler {
///     func handle(_ request: HTTPRequest) -> HTTPReply {
///         .respond(HTTPResponse(status: 200, contentType: "text/plain", text: "hello"))
///     }
///     func reject(_ failure: HTTPRequestFailure, method: String, path: String) -> HTTPResponse {
///         HTTPResponse(status: failure.status, contentType: "text/plain", text: failure.detail)
///     }
/// }
/// let server = try HTTPServer(configuration: .init(port: 0), handler: Hello())
/// ```
public protocol HTTPHandler: Sendable {
    /// Answers a complete request.
    func handle(_ request: HTTPRequest) -> HTTPReply
    /// Answers a request MicroHTTP refused before it was complete (too large, badly encoded).
    func reject(_ failure: HTTPRequestFailure, method: String, path: String) -> HTTPResponse
}

/// A handler's answer: now, or later through a promise.
public enum HTTPReply: Sendable {
    /// Send this response now.
    case respond(HTTPResponse)
    /// Call the closure with a promise; fulfil it (once, from any thread) to send the response.
    /// A promise fulfilled before the closure returns is answered at once; otherwise the
    /// connection is suspended (no thread held) until it is. Unfulfilled promises are answered
    /// 503 when the server stops. Work handed to the promise's `execute` runs on the worker
    /// thread that serves the request.
    case later(@Sendable (ResponsePromise) -> Void)
}
