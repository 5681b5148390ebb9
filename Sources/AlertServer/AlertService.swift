import AlertCatalogs
import Foundation
import MicroHTTP

/// The alertd HTTP API: routes every request to its handler and turns what the handler returns,
/// or throws, into a response. It is the `HTTPHandler` the MicroHTTP server calls.
public struct AlertService: HTTPHandler {
    public let router: Router
    public let queue: QueueServices

    /// - Parameters:
    ///   - catalogs: the catalogs to list and render.
    ///   - queue: the session queues' store, credentials and long-polls.
    ///   - openAPI: the bytes served at `/openapi.yaml`; by default the bundled document.
    ///   - renderCacheSize: about how many rendered alerts (alert, parameters, locale) are kept,
    ///     shared by the render endpoint and the queue; 0 keeps none.
    ///   - maxAge: the `max-age` of specs and catalog listings, in seconds.
    public init(
        catalogs: CatalogRegistry, queue: QueueServices, openAPI: [UInt8]? = nil, renderCacheSize: Int = 4096, maxAge: Int = 300
    ) throws {
        var router = Router()
        HealthHandlers(catalogs: catalogs, store: queue.store).register(in: &router)
        let document = try openAPI ?? Self.bundledOpenAPI()
        router.add("GET", "/openapi.yaml") { _ in
            HTTPResponse(status: 200, headers: ["Content-Type": "application/yaml"], body: document)
        }
        let alerts = RenderedAlerts(catalogs: catalogs, capacity: renderCacheSize, maxAge: maxAge)
        try CatalogHandlers(catalogs: catalogs, alerts: alerts, maxAge: maxAge).register(in: &router)
        SpecHandlers(catalogs: catalogs).register(in: &router)
        QueueHandlers(alerts: alerts, store: queue.store, access: queue.access, polls: queue.polls, settings: queue.settings)
            .register(in: &router)
        self.router = router
        self.queue = queue
    }

    /// The OpenAPI document shipped in this module's resources.
    public static func bundledOpenAPI() throws -> [UInt8] {
        guard let url = Bundle.module.url(forResource: "openapi", withExtension: "yaml") else {
            throw CocoaError(.fileNoSuchFile)
        }
        return Array(try Data(contentsOf: url))
    }

    public func handle(_ http: HTTPRequest) -> HTTPReply {
        let match = router.match(method: http.method, path: http.path)
        guard case .found(.later(let handler), let parameters) = match else {
            return .respond(respond(to: http, match))
        }
        let request = Request(http: http, pathParameters: parameters)
        return .later { promise in
            // Immediate: the handler runs on this worker thread until it must wait (a long-poll,
            // a store that suspends), so a request answered without waiting costs no thread hop.
            // After a wait it continues on the handler executor's threads.
            Task.immediate(executorPreference: HandlerExecutor.shared) {
                let outcome = await Result(awaiting: {
                    try JSONContentType.require(http)
                    return try await handler(request)
                })
                Self.settle(outcome, for: request) { promise.fulfill($0) }
            }
        }
    }

    /// Routes and answers any request, waiting for async handlers (without a socket, in tests).
    public func answer(_ http: HTTPRequest) async -> HTTPResponse {
        if case .found(.later(let handler), let parameters) = router.match(method: http.method, path: http.path) {
            let request = Request(http: http, pathParameters: parameters)
            let outcome = await Result(awaiting: {
                try JSONContentType.require(http)
                return try await handler(request)
            })
            return await withCheckedContinuation { continuation in
                Self.settle(outcome, for: request) { continuation.resume(returning: $0) }
            }
        }
        return respond(to: http)
    }

    /// Turns what an async handler gave into the response `deliver` sends: now, or — for a
    /// `PendingResponse` — once it is answered, however many times it waits again.
    private static func settle(
        _ outcome: Result<any ResponseGenerator, any Error>, for request: Request, deliver: @escaping @Sendable (HTTPResponse) -> Void
    ) {
        do {
            let generator = try outcome.get()
            if let pending = generator as? PendingResponse {
                pending.start { settle($0, for: request, deliver: deliver) }
            } else {
                deliver(try generator.response(for: request))
            }
        } catch {
            deliver(problem(APIError(error), for: request, cause: error))
        }
    }

    /// Routes and answers one request whose handler answers now (without a socket, in tests).
    public func respond(to http: HTTPRequest) -> HTTPResponse {
        respond(to: http, router.match(method: http.method, path: http.path))
    }

    /// Answers one request whose route is already matched (routing once per request).
    private func respond(to http: HTTPRequest, _ match: Router.Match) -> HTTPResponse {
        switch match {
        case .found(.now(let handler), let parameters):
            let request = Request(http: http, pathParameters: parameters)
            do {
                try JSONContentType.require(http)
                return try handler(request).response(for: request)
            } catch {
                return Self.problem(APIError(error), for: request, cause: error)
            }
        case .found(.later, _):
            preconditionFailure("\(http.method) \(http.path) answers later: use answer(_:)")
        case .methodNotAllowed(let allow):
            return Self.problem(.methodNotAllowed(allow: allow), for: Request(http: http))
        case .notFound:
            return Self.problem(.notFound("There is nothing at \(http.path)."), for: Request(http: http))
        }
    }

    public func reject(_ failure: HTTPRequestFailure, method: String, path: String) -> HTTPResponse {
        // Refusals are the client's doing (or a stop in progress): answered, not logged.
        let error = APIError.refused(failure)
        return (try? error.response(for: Request(http: HTTPRequest(method: method, path: path))))
            ?? HTTPResponse(status: error.status, contentType: "text/plain", text: error.description)
    }

    /// The problem response for `error`; a 5xx is logged with its `cause` (the client's answer
    /// says only that it was logged), on one line: control characters in the path are replaced.
    private static func problem(_ error: APIError, for request: Request, cause: (any Error)? = nil) -> HTTPResponse {
        if error.status >= 500 {
            let path = String(String.UnicodeScalarView(request.http.path.unicodeScalars.map {
                $0.properties.generalCategory == .control ? "?" : $0
            }))
            let why = String(describing: cause ?? error).replacing("\n", with: " ")
            FileHandle.standardError.write(Data("error: \(request.http.method) \(path): \(why)\n".utf8))
        }
        // Encoding a Problem cannot fail (strings and an integer); keep a plain answer regardless.
        return (try? error.response(for: request))
            ?? HTTPResponse(status: error.status, contentType: "text/plain", text: error.description)
    }
}
