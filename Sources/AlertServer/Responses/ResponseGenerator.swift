import AlertSpec
import MicroHTTP

/// Anything a handler can return: it knows how to become an HTTP response for its request.
///
/// ```swift
/// struct Health: Encodable, ResponseGenerator { let status = "alive" }   // JSON, 200
/// router.add("GET", "/livez") { _ in Health() }
/// ```
public protocol ResponseGenerator {
    func response(for request: Request) throws -> HTTPResponse
}

extension HTTPResponse: ResponseGenerator {
    public func response(for request: Request) throws -> HTTPResponse { self }
}

/// Encodable values answer as JSON with status 200, members in their encoding order.
extension ResponseGenerator where Self: Encodable {
    public func response(for request: Request) throws -> HTTPResponse {
        try JSONResponse(self).response(for: request)
    }
}

/// A value encoded as JSON, with a status and extra headers.
public struct JSONResponse<Value: Encodable>: ResponseGenerator {
    public var status: Int
    public var value: Value
    public var headers: HTTPHeaders
    public var contentType: String

    public init(_ value: Value, status: Int = 200, headers: HTTPHeaders = [:], contentType: String = "application/json") {
        self.status = status
        self.value = value
        self.headers = headers
        self.contentType = contentType
    }

    public func response(for request: Request) throws -> HTTPResponse {
        var headers = self.headers
        headers.set("Content-Type", contentType)
        return HTTPResponse(status: status, headers: headers, body: try OrderedJSONEncoder().encode(value))
    }
}
