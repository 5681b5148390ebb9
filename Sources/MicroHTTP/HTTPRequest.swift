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
    /// The request's `X-Request-Id` (the client's, or one MicroHTTP made); every response
    /// carries it back. Empty for requests made by hand.
    public var requestID: String

    public init(
        method: String, path: String, query: [(name: String, value: String?)] = [],
        headers: HTTPHeaders = [:], body: [UInt8] = [], requestID: String = ""
    ) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
        self.requestID = requestID
    }

    /// The first value of a query item, or nil when absent.
    public func queryValue(_ name: String) -> String? {
        for item in query where item.name == name { return item.value ?? "" }
        return nil
    }
}
