import AlertCatalogs
import AlertQueue
import Foundation
import Logging
import MicroHTTP

/// The alertd HTTP API: routes every request to its handler and turns what the handler returns,
/// or throws, into a response. It is the `HTTPHandler` the MicroHTTP server calls.
public struct AlertService: HTTPHandler {
    public let router: Router
    public let queue: QueueServices
    public let metrics: ServiceMetrics
    /// Request lines, lifecycle events and the causes of 5xx answers.
    public let logger: Logger
    /// Requests by route and status, durations by route.
    let requests: RequestMetrics
    /// The catalogs served now, swapped whole by a reload; answers of the routes that say
    /// `keeping` are kept with them (see `KeptAnswers`).
    public let catalogs: CurrentCatalogs
    /// The daily outcome counters' roll-up: `run()` it for the server's life.
    public let outcomes: OutcomeRollUps
    /// Fans out the campaigns, when the store keeps them: run it for the server's life.
    public let campaigns: CampaignRunner?
    /// Handlers' outcomes made responses, problems logged (see `Answering`).
    private let answering: Answering

    /// - Parameters:
    ///   - catalogs: the catalogs to list and render at first.
    ///   - catalogFolder: the folder `catalogs` read their files from (`--catalogs`), which
    ///     `POST /v1/catalogs/reload` and `reloadCatalogs` read anew; nil for none.
    ///   - queue: the session queues' store, credentials and long-polls.
    ///   - openAPI: the bytes served at `/openapi.yaml`; by default the bundled document.
    ///   - renderCacheSize: about how many rendered alerts (alert, parameters, locale) are kept,
    ///     shared by the render endpoint and the queue; 0 keeps none.
    ///   - maxAge: the `max-age` of specs and catalog listings, in seconds.
    ///   - metrics: where `/metrics` counts; a registry of its own by default.
    ///   - logger: request lines and 5xx causes; none by default (tests), `alertd serve` passes its own.
    public init(
        catalogs registry: CatalogRegistry, catalogFolder: URL? = nil, queue: QueueServices, openAPI: [UInt8]? = nil,
        renderCacheSize: Int = 4096, maxAge: Int = 300,
        metrics: ServiceMetrics = ServiceMetrics(), logger: Logger = Logger(label: "alertd", factory: { _ in SwiftLogNoOpLogHandler() })
    ) throws {
        let catalogs = try CurrentCatalogs(
            registry, source: catalogFolder.map(CatalogSource.init), capacity: renderCacheSize, maxAge: maxAge, metrics: metrics,
            logger: logger)
        var router = Router()
        HealthHandlers(catalogs: catalogs, store: queue.store).register(in: &router)
        // Tagged once, like a rendered spec: a client that has the document gets a 304.
        let document = try openAPI ?? Self.bundledOpenAPI()
        let openAPIResponse = CacheableResponse(
            json: document, etag: EntityTag.strong(for: document), cacheControl: CacheableResponse.publicCaching(maxAge: maxAge),
            contentType: "application/yaml")
        router.add("GET", "/openapi.yaml") { _ in openAPIResponse }
        ConsoleHandlers(assets: try ConsoleAssets.bundled()).register(in: &router)
        CatalogHandlers(current: catalogs).register(in: &router)
        ReloadHandlers(catalogs: catalogs, access: queue.access).register(in: &router)
        SpecHandlers(current: catalogs).register(in: &router)
        QueueHandlers(catalogs: catalogs, queue: queue, metrics: metrics).register(in: &router)
        UserHandlers(queue: queue).register(in: &router)
        ProfileHandlers(queue: queue).register(in: &router)
        let outcomes = OutcomeRollUps(store: queue.store, metrics: metrics, logger: logger)
        OutcomeHandlers(catalogs: catalogs, rollUps: outcomes, access: queue.access, clock: queue.clock).register(in: &router)
        RecallHandlers(catalogs: catalogs, queue: queue).register(in: &router)
        UserQueueHandlers(catalogs: catalogs, queue: queue, metrics: metrics).register(in: &router)
        var campaigns: CampaignRunner?
        if let store = queue.store as? any CampaignStore {
            let runner = CampaignRunner(store: store, polls: queue.polls, clock: queue.clock, logger: logger)
            CampaignHandlers(catalogs: catalogs, queue: queue, store: store, runner: runner).register(in: &router)
            campaigns = runner
        }
        // `/metrics` last: the request table is made for every route, its own included.
        let requests = RequestMetrics(routes: router.routes.map { .init(method: $0.method, pattern: $0.pattern) } + [.init(method: "GET", pattern: "/metrics")])
        MetricsHandlers(metrics: metrics, requests: requests, queue: queue).register(in: &router)
        precondition(router.routes.count == requests.routes.count, "a route added after /metrics")
        self.router = router
        self.queue = queue
        self.metrics = metrics
        self.logger = logger
        self.requests = requests
        self.catalogs = catalogs
        self.answering = Answering(metrics: metrics, logger: logger)
        self.outcomes = outcomes
        self.campaigns = campaigns
    }

    /// What the server should tell of every finished request: it counts it for `/metrics` and
    /// logs its line. Pass it to `HTTPServer(configuration:handler:observer:)`.
    public var observer: any HTTPObserver {
        RequestObserver(metrics: requests, logger: logger)
    }

    /// The OpenAPI document shipped in this module's resources.
    public static func bundledOpenAPI() throws -> [UInt8] {
        guard let url = Bundle.module.url(forResource: "openapi", withExtension: "yaml") else {
            throw CocoaError(.fileNoSuchFile)
        }
        return Array(try Data(contentsOf: url))
    }

    public func handle(_ http: HTTPRequest) -> HTTPReply {
        // Kept with the catalogs read here: an answer made from older ones is never kept with newer.
        let kept = catalogs.now.kept
        if let response = kept.response(to: http) { return .respond(response) }
        let match = router.match(method: http.method, path: http.path)
        guard case .found(.later(let handler), let parameters, let route) = match else {
            return .respond(respondNow(to: http, match, keepingIn: kept))
        }
        let request = Request(http: http, pathParameters: parameters)
        // The closures below keep `answering`, not a copy of the service.
        let answering = answering
        return .later { promise in
            // Immediate: the handler runs on this worker thread until it must wait (a long-poll,
            // a store that suspends), so a request answered without waiting costs no thread hop.
            // After a wait it continues on this connection's worker thread too (`RequestExecutor`).
            let executor = RequestExecutor(promise)
            Task.immediate(executorPreference: executor) {
                // The task keeps its executor alive: the runtime refers to it without a retain.
                _ = executor
                let outcome = await Result(awaiting: {
                    try JSONContentType.require(http)
                    return try await handler(request)
                })
                answering.settle(outcome, for: request) { response in
                    var response = response
                    response.route = route
                    promise.fulfill(response)
                }
            }
        }
    }

    /// Answers any request without a socket, through `handle` as the server does (kept answers,
    /// routing, waiting handlers), waiting for the answer: for tests and tools.
    public func answer(_ http: HTTPRequest) async -> HTTPResponse {
        switch handle(http) {
        case .respond(let response):
            return response
        case .later(let start):
            return await withCheckedContinuation { continuation in
                start(ResponsePromise(detached: { continuation.resume(returning: $0) }))
            }
        }
    }

    /// `answer` for a request whose route answers at once (not an async one).
    public func respond(to http: HTTPRequest) -> HTTPResponse {
        guard case .respond(let response) = handle(http) else {
            preconditionFailure("\(http.method) \(http.path) answers later: use answer(_:)")
        }
        return response
    }

    /// Answers one request whose route is already matched (routing once per request).
    private func respondNow(to http: HTTPRequest, _ match: Router.Match, keepingIn kept: KeptAnswers) -> HTTPResponse {
        switch match {
        case .found(.now(let handler), let parameters, let route):
            let request = Request(http: http, pathParameters: parameters)
            var response: HTTPResponse
            do {
                try JSONContentType.require(http)
                let generator = try handler(request)
                response = try generator.response(for: request)
                if let keeping = router.routes[route].keeping, let cacheable = generator as? CacheableResponse {
                    kept.keep(cacheable, route: route, keeping: keeping, for: http)
                }
            } catch {
                response = problem(APIError(error), for: request, cause: error)
            }
            response.route = route
            return response
        case .found(.later, _, _):
            preconditionFailure("\(http.method) \(http.path) answers later: use answer(_:)")
        case .methodNotAllowed(let allow):
            return problem(.methodNotAllowed(allow: allow), for: Request(http: http))
        case .notFound:
            return problem(.notFound("There is nothing at \(http.path)."), for: Request(http: http))
        }
    }

    /// Loads the catalog folder anew and serves what it holds from the next request on, or keeps
    /// the catalogs served now when it has problems; logged and counted either way (SIGHUP).
    public func reloadCatalogs(via: String) -> Result<CatalogReloadSummary, CatalogReloadError> {
        catalogs.reload(via: via)
    }

    public func reject(_ failure: HTTPRequestFailure, method: String, path: String) -> HTTPResponse {
        // Refusals are the client's doing (or a stop in progress): answered, not logged.
        let error = APIError.refused(failure)
        return (try? error.response(for: Request(http: HTTPRequest(method: method, path: path))))
            ?? HTTPResponse(status: error.status, contentType: "text/plain", text: error.description)
    }

    /// The problem response for `error`, its 5xx logged (see `Answering.problem`).
    private func problem(_ error: APIError, for request: Request, cause: (any Error)? = nil) -> HTTPResponse {
        answering.problem(error, for: request, cause: cause)
    }
}
