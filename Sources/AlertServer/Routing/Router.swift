/// Maps a method and a path to a handler. Patterns are literal segments and `{name}` segments;
/// HEAD is served by the GET route. A path that matches with another method gives the methods
/// it does allow (for 405 and `Allow`).
public struct Router: Sendable {
    public typealias Handler = @Sendable (Request) throws -> any ResponseGenerator

    /// One registered route.
    public struct Route: Sendable {
        public let method: String
        /// The OpenAPI form, e.g. `/v1/catalogs/{catalog}`.
        public let pattern: String
        fileprivate let segments: [Segment]
        fileprivate let handler: Handler
    }

    fileprivate enum Segment: Sendable, Equatable {
        case literal(String)
        case parameter(String)
    }

    public enum Match {
        case found(Handler, [String: String])
        case methodNotAllowed(allow: [String])
        case notFound
    }

    public private(set) var routes: [Route] = []

    public init() {}

    public mutating func add(_ method: String, _ pattern: String, _ handler: @escaping Handler) {
        let segments: [Segment] = pattern.split(separator: "/").map { part in
            part.hasPrefix("{") && part.hasSuffix("}") ? .parameter(String(part.dropFirst().dropLast())) : .literal(String(part))
        }
        precondition(
            !routes.contains { $0.method == method && $0.segments == segments }, "route \(method) \(pattern) added twice")
        routes.append(Route(method: method, pattern: pattern, segments: segments, handler: handler))
    }

    public func match(method: String, path: String) -> Match {
        let parts = path.split(separator: "/", omittingEmptySubsequences: true)
        let wanted = method == "HEAD" ? "GET" : method
        var allowed: [String] = []
        for route in routes {
            guard let parameters = Self.bind(route.segments, to: parts) else { continue }
            if route.method == wanted { return .found(route.handler, parameters) }
            allowed.append(route.method)
        }
        guard !allowed.isEmpty else { return .notFound }
        if allowed.contains("GET") { allowed.append("HEAD") }
        return .methodNotAllowed(allow: allowed)
    }

    private static func bind(_ segments: [Segment], to parts: [Substring]) -> [String: String]? {
        guard segments.count == parts.count else { return nil }
        var parameters: [String: String] = [:]
        for (segment, part) in zip(segments, parts) {
            switch segment {
            case .literal(let text): guard part == text else { return nil }
            case .parameter(let name): parameters[name] = String(part)
            }
        }
        return parameters
    }
}
