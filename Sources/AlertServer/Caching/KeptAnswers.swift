import MicroHTTP

/// The answers of the routes whose answer depends on the request's path, query and
/// `Accept-Language` alone (a rendered spec, a catalog listing), kept by those three: a repeated
/// request is answered with one lookup, before routing, as a caching proxy in front would.
///
/// Without it a repeated render still costs routing, the catalog's lookup, the locale's
/// negotiation and the render cache's lookup, each on its own key: about 9,000 of a cache
/// hit's 27,000 instructions. A kept answer is the `CacheableResponse` the route gave, so
/// `If-None-Match` is still checked per request, and it never outlives what it answers from:
/// each set of catalogs has its own `KeptAnswers` (`ServedCatalogs`), dropped when a reload
/// swaps the set, and the renderings are pure.
///
/// Keys are the request's own spelling (the percent-decoded path and query items in the order
/// sent): two spellings of one render are two entries of the same response. Bounded like the
/// render cache (`BoundedCache`: a key is admitted to a full shard only the second time it is
/// asked for, so a stream of one-off renders does not age the repeated ones out).
///
/// ```swift
/// let kept = KeptAnswers(capacity: 4096)
/// if let response = kept.response(to: http) { return .respond(response) }   // before routing
/// kept.keep(cacheable, route: route, keeping: keeping, for: http)           // after a keeping route answered
/// ```
struct KeptAnswers: Sendable {
    /// What a request is answered by: the route's answer, which route (for metrics and logs),
    /// and what to count when it answers again.
    struct Answer: Sendable {
        let response: CacheableResponse
        let route: Int
        let keeping: Router.Keeping
    }

    private let answers: BoundedCache<Key, Answer>

    /// - Parameter capacity: about how many answers are kept; 0 keeps none.
    init(capacity: Int) {
        answers = BoundedCache(capacity: capacity)
    }

    /// The kept answer to `http`, with its `If-None-Match` honoured, or nil. Only GET and HEAD
    /// without a body are answered here: anything else goes through its route.
    func response(to http: HTTPRequest) -> HTTPResponse? {
        guard Self.mayAnswer(http), let answer = answers.value(for: Key(http)) else { return nil }
        answer.keeping.answeredAgain()
        var response = answer.response.response(revalidating: http.headers)
        response.route = answer.route
        return response
    }

    /// Keeps `response`, the answer of route `route` to `http`.
    func keep(_ response: CacheableResponse, route: Int, keeping: Router.Keeping, for http: HTTPRequest) {
        guard Self.mayAnswer(http) else { return }
        answers.insert(Answer(response: response, route: route, keeping: keeping), for: Key(http))
    }

    /// A body-less GET or HEAD: the only requests kept answers are for.
    private static func mayAnswer(_ http: HTTPRequest) -> Bool {
        http.body.isEmpty && (http.method == "GET" || http.method == "HEAD")
    }

    /// A request's path, query items and `Accept-Language`, compared and hashed in place (no
    /// string is made of them).
    struct Key: Hashable, Sendable {
        let path: String
        let query: [(name: String, value: String?)]
        let acceptLanguage: String?

        init(_ http: HTTPRequest) {
            path = http.path
            query = http.query
            acceptLanguage = http.headers["Accept-Language"]
        }

        static func == (lhs: Key, rhs: Key) -> Bool {
            guard lhs.path == rhs.path, lhs.acceptLanguage == rhs.acceptLanguage, lhs.query.count == rhs.query.count else {
                return false
            }
            for (left, right) in zip(lhs.query, rhs.query) where left.name != right.name || left.value != right.value {
                return false
            }
            return true
        }

        func hash(into hasher: inout Hasher) {
            hasher.combine(path)
            hasher.combine(query.count)
            for item in query {
                hasher.combine(item.name)
                hasher.combine(item.value)
            }
            hasher.combine(acceptLanguage)
        }
    }
}
