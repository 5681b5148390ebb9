import Glibc

/// Maps a method and a path to a handler. Patterns are literal segments and `{name}` segments;
/// HEAD is served by the GET route. A path that matches with another method gives the methods
/// it does allow (for 405 and `Allow`). A path that fits a route with a literal where another
/// has a `{name}` belongs to the literal one only: `/v1/catalogs/reload` is not a catalog.
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
        /// Set when the route's answers may be kept by request target (see `Keeping`).
        public let keeping: Keeping?
        fileprivate let segments: [Segment]
        fileprivate let responder: Responder
        /// The routes that take a path this one fits, being more specific (see `shadows`).
        fileprivate var shadowedBy: [Int] = []
    }

    /// A route whose answer is a `CacheableResponse` that depends on the request's path, query
    /// and `Accept-Language` alone: its answers are kept by those (`KeptAnswers`) and given again
    /// without routing. `answeredAgain` runs each time a kept answer is (to count it).
    public struct Keeping: Sendable {
        let answeredAgain: @Sendable () -> Void

        public static let byTarget = Keeping {}

        /// Kept, with `count` run for each answer given again.
        public static func byTarget(counting count: @escaping @Sendable () -> Void) -> Keeping { Keeping(answeredAgain: count) }
    }

    fileprivate enum Segment: Sendable, Equatable {
        /// The segment's UTF-8, compared as bytes.
        case literal([UInt8])
        case parameter(String)
    }

    public enum Match {
        /// The route's responder, the path's parameters, and the route's index in `routes`.
        case found(Responder, PathParameters, route: Int)
        case methodNotAllowed(allow: [String])
        case notFound
    }

    public private(set) var routes: [Route] = []
    /// The most segments a route has: a path with more matches none.
    private var maxSegments = 0

    public init() {}

    /// Adds a route that answers at once; `keeping` when its answers may be kept by target.
    public mutating func add(_ method: String, _ pattern: String, keeping: Keeping? = nil, _ handler: @escaping Handler) {
        add(method, pattern, responder: .now(handler), answersHead: true, keeping: keeping)
    }

    /// Adds a route whose handler waits: it answers later, the connection suspended meanwhile.
    /// A GET that changes state (delivers an item) says `answersHead: false`, so HEAD cannot
    /// trigger it and lose its answer.
    public mutating func addAsync(_ method: String, _ pattern: String, answersHead: Bool = true, _ handler: @escaping AsyncHandler) {
        add(method, pattern, responder: .later(handler), answersHead: answersHead, keeping: nil)
    }

    private mutating func add(_ method: String, _ pattern: String, responder: Responder, answersHead: Bool, keeping: Keeping?) {
        let segments: [Segment] = pattern.split(separator: "/").map { part in
            part.hasPrefix("{") && part.hasSuffix("}") ? .parameter(String(part.dropFirst().dropLast())) : .literal(Array(part.utf8))
        }
        precondition(
            !routes.contains { $0.method == method && $0.segments == segments }, "route \(method) \(pattern) added twice")
        routes.append(Route(
            method: method, pattern: pattern, answersHead: answersHead, keeping: keeping, segments: segments, responder: responder))
        maxSegments = max(maxSegments, segments.count)
        let added = routes.count - 1
        for index in routes.indices.dropLast() {
            if Self.shadows(segments, routes[index].segments) { routes[index].shadowedBy.append(added) }
            if Self.shadows(routes[index].segments, segments) { routes[added].shadowedBy.append(index) }
        }
    }

    /// Whether every path `general` fits and `specific` fits too is `specific`'s: the same
    /// length, the same literals, and a literal somewhere `general` has a `{name}`.
    private static func shadows(_ specific: [Segment], _ general: [Segment]) -> Bool {
        guard specific.count == general.count else { return false }
        var narrower = false
        for (mine, theirs) in zip(specific, general) {
            switch (mine, theirs) {
            case (.literal(let a), .literal(let b)) where a != b: return false
            case (.parameter, .literal): return false
            case (.literal, .parameter): narrower = true
            default: continue
            }
        }
        return narrower
    }

    public func match(method: String, path: String) -> Match {
        if let match = path.utf8.withContiguousStorageIfAvailable({ match(method: method, path: $0) }) { return match }
        var contiguous = path
        return contiguous.withUTF8 { match(method: method, path: $0) }
    }

    /// Matches the path's UTF-8 without making anything for a route that does not fit: the
    /// segments' ranges go to a small buffer on the stack, and literals are compared byte for
    /// byte (they are ASCII, so that is what comparing them as text would decide).
    ///
    /// Split on the byte `/`, not on characters: a combining mark or an emoji modifier right
    /// after a `/` joins it into one character, which would hide the separator (a 404). (`/` is
    /// ASCII, so it is never part of another character's UTF-8.) Empty segments are skipped.
    private func match(method: String, path: UnsafeBufferPointer<UInt8>) -> Match {
        withUnsafeTemporaryAllocation(of: Range<Int>.self, capacity: maxSegments + 1) { parts in
            var count = 0
            var start = 0
            for index in 0...path.count where index == path.count || path[index] == UInt8(ascii: "/") {
                if index > start {
                    // One more segment than any route has: no route fits, whatever follows.
                    guard count <= maxSegments else { return .notFound }
                    parts[count] = start..<index
                    count += 1
                }
                start = index + 1
            }
            return match(method: method, path: path, parts: UnsafeBufferPointer(rebasing: parts[0..<count]))
        }
    }

    private func match(method: String, path: UnsafeBufferPointer<UInt8>, parts: UnsafeBufferPointer<Range<Int>>) -> Match {
        let wanted = method == "HEAD" ? "GET" : method
        var allowed: [String] = []
        var headAllowed = false
        for (index, route) in routes.enumerated() where Self.fits(route.segments, path, parts)
            && !route.shadowedBy.contains(where: { Self.fits(routes[$0].segments, path, parts) })
        {
            if route.method == wanted, method != "HEAD" || route.answersHead {
                return .found(route.responder, Self.bind(route.segments, path, parts), route: index)
            }
            allowed.append(route.method)
            headAllowed = headAllowed || (route.method == "GET" && route.answersHead)
        }
        guard !allowed.isEmpty else { return .notFound }
        if headAllowed { allowed.append("HEAD") }
        return .methodNotAllowed(allow: allowed)
    }

    /// Whether the path's `parts` have the route's length and literals.
    private static func fits(_ segments: [Segment], _ path: UnsafeBufferPointer<UInt8>, _ parts: UnsafeBufferPointer<Range<Int>>) -> Bool {
        guard segments.count == parts.count else { return false }
        for index in segments.indices {
            guard case .literal(let bytes) = segments[index] else { continue }
            let part = parts[index]
            guard part.count == bytes.count,
                bytes.withUnsafeBufferPointer({ memcmp($0.baseAddress!, path.baseAddress! + part.lowerBound, part.count) == 0 })
            else { return false }
        }
        return true
    }

    /// The `{name}` values of a route that `fits` (valid UTF-8: the path was a String, cut at `/`).
    private static func bind(_ segments: [Segment], _ path: UnsafeBufferPointer<UInt8>, _ parts: UnsafeBufferPointer<Range<Int>>) -> PathParameters {
        var parameters = PathParameters()
        for index in segments.indices {
            if case .parameter(let name) = segments[index] {
                parameters.append(name, String(decoding: UnsafeBufferPointer(rebasing: path[parts[index]]), as: UTF8.self))
            }
        }
        return parameters
    }
}
