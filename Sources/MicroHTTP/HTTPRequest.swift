/// One complete HTTP request as alertd's handlers see it: decoded, body included.
///
/// MicroHTTP builds it on the server thread after the last body chunk has arrived, so handlers
/// never deal with partial requests or with C pointers.
public struct HTTPRequest: Sendable {
    /// The method as sent (`GET`, `POST`, …).
    public var method: String
    /// The percent-decoded path, without the query string.
    public var path: String
    /// Query items in the order sent, percent-decoded; a bare `?flag` has a nil value.
    public var query: [(name: String, value: String?)]
    public var headers: HTTPHeaders
    public var body: [UInt8]

    public init(
        method: String, path: String, query: [(name: String, value: String?)] = [],
        headers: HTTPHeaders = [:], body: [UInt8] = []
    ) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
    }

    /// The first value of a query item, or nil when absent.
    public func queryValue(_ name: String) -> String? {
        for item in query where item.name == name { return item.value ?? "" }
        return nil
    }
}

/// Why MicroHTTP refused a request before it reached the handler. The handler turns it into a
/// response (so error bodies keep the application's format).
public struct HTTPRequestFailure: Error, Sendable, Equatable {
    private enum Reason: Equatable {
        case bodyTooLarge(limit: Int)
        case invalidEncoding(part: String)
    }

    private let reason: Reason

    /// The body is larger than the configured limit (413).
    public static func bodyTooLarge(limit: Int) -> Self { .init(reason: .bodyTooLarge(limit: limit)) }
    /// The path, a query item or a header is not valid UTF-8 (400).
    public static func invalidEncoding(_ part: String) -> Self { .init(reason: .invalidEncoding(part: part)) }

    /// The status the response should carry.
    public var status: Int {
        switch reason {
        case .bodyTooLarge: 413
        case .invalidEncoding: 400
        }
    }

    /// One sentence for the client.
    public var detail: String {
        switch reason {
        case .bodyTooLarge(let limit): "The request body is larger than the limit of \(limit) bytes."
        case .invalidEncoding(let part): "The request's \(part) is not valid UTF-8."
        }
    }
}
