import MicroHTTP

/// A request as handlers see it: the HTTP request plus the values of the route's `{parameters}`.
public struct Request: Sendable {
    public let http: HTTPRequest
    /// Path parameters by name, e.g. `catalog` and `type`.
    public let pathParameters: PathParameters

    public init(http: HTTPRequest, pathParameters: PathParameters = [:]) {
        self.http = http
        self.pathParameters = pathParameters
    }

    /// A path parameter the route guarantees.
    public func path(_ name: String) -> String { pathParameters[name] ?? "" }

    /// The single value of a query item; 400 when it is given more than once.
    public func query(_ name: String) throws -> String? {
        var found: String?
        for item in http.query where item.name == name {
            guard found == nil else { throw APIError.badRequest("The query item \"\(name)\" is given more than once.") }
            found = item.value ?? ""
        }
        return found
    }
}
