/// Maps a method and a path to a handler. Patterns are literal segments and `{name}` segments;
/// HEAD is served by the GET route. A path that matches with another method gives the methods
/// it does allow (for 405 and `Allow`).
///
/// Handlers that answer from memory are plain functions and run on the server thread; handlers
/// that wait (a store, a long-poll) are `async` and answer later, the connection suspended.
public struct Router: Sendable {
    public typealias Handler = @Sendable (Request) throws -> any ResponseGenerator
    public typealias AsyncHandler = @Sendable (Request) async throws -> any ResponseGenerator

    /// A route's handler, by how it answers.
    public enum Responder: Sendable {
        case now(Handler)
        case later(AsyncHandler)
    }

    /// One registered route.
    public struct Route: Sendable {
        public let method: String
        /// The OpenAPI form, e.g. `/v1/catalogs/{catalog}`.
        public let pattern: String
        /// Whether HEAD is served by this GET route (not for a GET with effects, like `next`).
        public let answersHead: Bool
        fileprivate let segments: [Segment]
        fileprivate let responder: Responder
    }

    fileprivate enum Segment: Sendable, Equatable {
        case literal(String)
        case parameter(String)
    }

    public enum Match {
        /// The route's responder, the path's parameters, and the route's index in `routes`.
        case found(Responder, PathParameters, route: Int)
        case methodNotAllowed(allow: [String])
        case notFound
    }

    public private(set) var routes: [Route] = []

    public init() {}

    public mutating func add(_ method: String, _ pattern: String, _ handler: @escaping Handler) {
        add(method, pattern, responder: .now(handler), answersHead: true)
    }

    /// Adds a route whose handler waits: it answers later, the connection suspended meanwhile.
    /// A GET that changes state (delivers an item) says `answersHead: false`, so HEAD cannot
    /// trigger it and lose its answer.
    public mutating func addAsync(_ method: String, _ pattern: String, answersHead: Bool = true, _ handler: @escaping AsyncHandler) {
        add(method, pattern, responder: .later(handler), answersHead: answersHead)
    }

    private mutating func add(_ method: String, _ pattern: String, responder: Responder, answersHead: Bool) {
        let segments: [Segment] = pattern.split(separator: "/").map { part in
            part.hasPrefix("{") && part.hasSuffix("}") ? .parameter(String(part.dropFirst().dropLast())) : .literal(String(part))
        }
        precondition(
            !routes.contains { $0.method == method && $0.segments == segments }, "route \(method) \(pattern) added twice")
        routes.append(Route(method: method, pattern: pattern, answersHead: answersHead, segments: segments, responder: responder))
    }

    public func match(method: String, path: String) -> Match {
        // Split on the byte `/`, not on characters: a combining mark or an emoji modifier right
        // after a `/` joins it into one character, which would hide the separator (a 404).
        // (`/` is ASCII, so it is never part of another character's UTF-8.)
        let parts = path.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: true).map { Substring($0) }
        let wanted = method == "HEAD" ? "GET" : method
        var allowed: [String] = []
        var headAllowed = false
        for (index, route) in routes.enumerated() where Self.fits(route.segments, parts) {
            if route.method == wanted, method != "HEAD" || route.answersHead {
                return .found(route.responder, Self.bind(route.segments, to: parts), route: index)
            }
            allowed.append(route.method)
            headAllowed = headAllowed || (route.method == "GET" && route.answersHead)
        }
        guard !allowed.isEmpty else { return .notFound }
        if headAllowed { allowed.append("HEAD") }
        return .methodNotAllowed(allow: allowed)
    }

    /// Whether `parts` have the route's length and literals; compared byte for byte (literals are
    /// ASCII, so that is what comparing them as text would decide), and nothing is made.
    private static func fits(_ segments: [Segment], _ parts: [Substring]) -> Bool {
        guard segments.count == parts.count else { return false }
        for index in segments.indices {
            if case .literal(let text) = segments[index], !parts[index].utf8.elementsEqual(text.utf8) { return false }
        }
        return true
    }

    /// The `{name}` values of a route that `fits`.
    private static func bind(_ segments: [Segment], to parts: [Substring]) -> PathParameters {
        var parameters = PathParameters(capacity: 2)
        for index in segments.indices {
            if case .parameter(let name) = segments[index] { parameters.append(name, String(parts[index])) }
        }
        return parameters
    }
}
