import AlertSpec
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// An app's side of alertd: rendered specs with ETag caching, and the session queue's
/// long-poll and acknowledgement. Specs arrive decoded and validated by the shared model
/// (`AlertSpec`), the same code the server renders with.
///
/// ```swift
/// let client = AlertClient(configuration: .init(baseURL: URL(string: "https://alerts.example.com")!) { session in
///     try await backend.alertdToken(for: session)
/// })
///
/// // A spec to show now; asked again, the server answers 304 and the cached spec comes back.
/// let spec = try await client.render(catalog: "app", alert: "questionExit", locale: "zh-Hans")
///
/// // The queue: wait for the next popup, show it, say which button was tapped.
/// while let delivery = try await client.next(session: "ana-phone", wait: .seconds(25)) {
///     let tapped = await present(delivery.spec)          // your UI
///     try await client.ack(session: "ana-phone", ticket: delivery.ticket, action: tapped)
/// }
/// ```
///
/// Safe to share between tasks; one client per server is enough. Methods throw
/// ``AlertClientError`` for every failure but two: `CancellationError` when the calling task
/// is cancelled (the request is cancelled with it), and what the session-token provider throws.
public final class AlertClient: Sendable {
    /// What the client was made with.
    public let configuration: AlertClientConfiguration

    let urlSession: URLSession
    private let ownsSession: Bool
    let state: Protected<State>

    struct State {
        var cache: RenderCache
        var statistics = AlertClientStatistics()
    }

    public init(configuration: AlertClientConfiguration) {
        self.configuration = configuration
        if let given = configuration.urlSession {
            urlSession = given
            ownsSession = false
        } else {
            let sessionConfiguration = URLSessionConfiguration.ephemeral
            sessionConfiguration.urlCache = nil
            sessionConfiguration.requestCachePolicy = .reloadIgnoringLocalCacheData
            urlSession = URLSession(configuration: sessionConfiguration)
            ownsSession = true
        }
        state = Protected(State(cache: RenderCache(capacity: configuration.cacheSize)))
    }

    /// A client of the server at `baseURL`; see ``AlertClientConfiguration`` for each setting.
    public convenience init(
        baseURL: URL, urlSession: URLSession? = nil, cacheSize: Int = 64,
        sessionToken: @escaping @Sendable (_ session: String) async throws -> String
    ) {
        self.init(
            configuration: AlertClientConfiguration(
                baseURL: baseURL, urlSession: urlSession, cacheSize: cacheSize, sessionToken: sessionToken))
    }

    deinit {
        // A session nobody invalidates keeps its resources (on Linux, a thread) for ever.
        if ownsSession { urlSession.finishTasksAndInvalidate() }
    }

    /// What the client has done so far.
    public var statistics: AlertClientStatistics {
        state.withLock { state in
            var statistics = state.statistics
            statistics.cachedRenders = state.cache.count
            return statistics
        }
    }

    // MARK: Requests

    /// A request for `endpoint` that ignores any local `URLCache` (the client keeps its own) and
    /// gives up after `extraTimeout` more seconds than the configured timeout.
    func makeRequest(_ method: String, _ endpoint: Endpoint, extraTimeout: TimeInterval = 0) throws -> URLRequest {
        var request = URLRequest(
            url: try endpoint.url(under: configuration.baseURL), cachePolicy: .reloadIgnoringLocalCacheData,
            timeoutInterval: configuration.requestTimeout + extraTimeout)
        request.httpMethod = method
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        return request
    }

    /// Adds `Authorization: Bearer <token>` with the provider's token for `session`.
    func authorize(_ request: inout URLRequest, session: String) async throws {
        let token = try await configuration.sessionToken(session)
        request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
    }

    /// Sends `request`, counting it.
    func send(_ request: URLRequest) async throws -> HTTPAnswer {
        try Task.checkCancellation()
        state.withLock { $0.statistics.requests += 1 }
        return try await HTTPExchange.send(request, through: urlSession)
    }
}
