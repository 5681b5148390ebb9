import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Where an ``AlertClient`` finds alertd, how it proves which session it speaks for, and how
/// much it remembers.
///
/// ```swift
/// let configuration = AlertClientConfiguration(baseURL: URL(string: "https://alerts.example.com")!) { session in
///     try await backend.alertdToken(for: session)   // your server asks alertd: POST /v1/sessions/{session}/token
/// }
/// let client = AlertClient(configuration: configuration)
/// ```
public struct AlertClientConfiguration: Sendable {
    /// The server's root, e.g. `https://alerts.example.com` or `https://api.example.com/alertd`
    /// behind a proxy; the API's paths (`/v1/…`) are appended to it.
    public var baseURL: URL

    /// The session token (`v1.<session>.<expiry>.<signature>`) for a session, sent as
    /// `Authorization: Bearer <token>` with `next` and `ack`. Asked before every such call, so
    /// it can hand out a refreshed token once the old one expires; what it throws reaches the
    /// caller unchanged. Rendering needs no token.
    public var sessionToken: @Sendable (_ session: String) async throws -> String

    /// The session requests go through. Nil (the default): the client makes an ephemeral one
    /// of its own, without a `URLCache` (the client keeps its own ETag cache), and invalidates
    /// it when the client goes away. A session given here is used as it is and never
    /// invalidated by the client; its requests ignore the local cache either way.
    public var urlSession: URLSession?

    /// How many renderings (one per URL: alert, parameters and locale) the ETag cache keeps;
    /// the least recently used goes first. 0 keeps none (every render downloads the spec).
    public var cacheSize: Int

    /// Seconds an ordinary call may wait for the server. A long-poll's own wait is added on top.
    public var requestTimeout: TimeInterval

    public init(
        baseURL: URL, urlSession: URLSession? = nil, cacheSize: Int = 64, requestTimeout: TimeInterval = 30,
        sessionToken: @escaping @Sendable (_ session: String) async throws -> String
    ) {
        self.baseURL = baseURL
        self.urlSession = urlSession
        self.cacheSize = max(0, cacheSize)
        self.requestTimeout = requestTimeout
        self.sessionToken = sessionToken
    }
}
