/// Why MicroHTTP refused a request before it reached the handler. The handler turns it into a
/// response (so error bodies keep the application's format); `status`, `code`, `title` and
/// `detail` say what to put in it. None of them repeats what the client sent.
public struct HTTPRequestFailure: Error, Sendable, Equatable {
    private enum Reason: Equatable {
        case bodyTooLarge(limit: Int)
        case invalidEncoding(part: String)
        case urlTooLong(limit: Int)
        case tooManyHeaders(limit: Int)
        case headTooLarge(limit: Int)
        case nonCanonicalPath
        case badHeader(String)
        case badFraming(String)
        case unavailable
    }

    private let reason: Reason

    /// The body is larger than the configured limit (413).
    public static func bodyTooLarge(limit: Int) -> Self { .init(reason: .bodyTooLarge(limit: limit)) }
    /// The path, a query item or a header is not valid UTF-8, or holds a NUL byte or another
    /// control character (400).
    public static func invalidEncoding(_ part: String) -> Self { .init(reason: .invalidEncoding(part: part)) }
    /// The path and query string are longer than the configured limit (414).
    public static func urlTooLong(limit: Int) -> Self { .init(reason: .urlTooLong(limit: limit)) }
    /// The request has more header fields than the configured limit (431).
    public static func tooManyHeaders(limit: Int) -> Self { .init(reason: .tooManyHeaders(limit: limit)) }
    /// The request line and header lines are larger than the configured limit (431).
    public static func headTooLarge(limit: Int) -> Self { .init(reason: .headTooLarge(limit: limit)) }
    /// The path is not in its one canonical form: `//`, a trailing `/`, a `.` or `..` segment,
    /// also percent-encoded (404: nothing is served there; no redirect, so `//host/…` cannot
    /// become an open redirect).
    public static let nonCanonicalPath = Self(reason: .nonCanonicalPath)
    /// A header that must be given once is missing or repeated (`Host`, `Authorization`), so
    /// the request could be read one way here and another by a proxy (400).
    public static func badHeader(_ detail: String) -> Self { .init(reason: .badHeader(detail)) }
    /// The body's length is ambiguous: `Content-Length` twice, together with `Transfer-Encoding`,
    /// a transfer coding other than `chunked`, or a header name with blanks (400). Such requests
    /// are how requests get smuggled past a proxy, so the connection is closed after the answer.
    public static func badFraming(_ detail: String) -> Self { .init(reason: .badFraming(detail)) }
    /// The server is stopping and cannot take the request (503).
    public static let unavailable = Self(reason: .unavailable)

    /// The status the response should carry.
    public var status: Int {
        switch reason {
        case .bodyTooLarge: 413
        case .invalidEncoding, .badFraming, .badHeader: 400
        case .nonCanonicalPath: 404
        case .urlTooLong: 414
        case .tooManyHeaders, .headTooLarge: 431
        case .unavailable: 503
        }
    }

    /// A stable code for the refusal (`body-too-large`, `bad-encoding`, …).
    public var code: String {
        switch reason {
        case .bodyTooLarge: "body-too-large"
        case .invalidEncoding: "bad-encoding"
        case .urlTooLong: "url-too-long"
        case .tooManyHeaders, .headTooLarge: "too-many-headers"
        case .nonCanonicalPath: "not-found"
        case .badHeader: "bad-request"
        case .badFraming: "bad-framing"
        case .unavailable: "unavailable"
        }
    }

    /// A short title for the refusal.
    public var title: String {
        switch reason {
        case .bodyTooLarge: "Request body too large"
        case .invalidEncoding: "Bad request encoding"
        case .urlTooLong: "URL too long"
        case .tooManyHeaders, .headTooLarge: "Request header fields too large"
        case .nonCanonicalPath: "Not found"
        case .badHeader: "Bad request"
        case .badFraming: "Ambiguous request framing"
        case .unavailable: "Service unavailable"
        }
    }

    /// One sentence for the client.
    public var detail: String {
        switch reason {
        case .bodyTooLarge(let limit): "The request body is larger than the limit of \(limit) bytes."
        case .invalidEncoding(let part): "The request's \(part) is not valid UTF-8 text without NUL bytes or other control characters."
        case .urlTooLong(let limit): "The path and query string are longer than the limit of \(limit) bytes."
        case .tooManyHeaders(let limit): "The request has more than \(limit) header fields."
        case .headTooLarge(let limit): "The request line and headers are larger than the limit of \(limit) bytes."
        case .nonCanonicalPath:
            "The path is not in canonical form (no empty, \".\" or \"..\" segment, no trailing slash); nothing is served there."
        case .badHeader(let detail), .badFraming(let detail): detail
        case .unavailable: "The server is shutting down; try again shortly."
        }
    }
}
