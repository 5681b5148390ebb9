/// What an ``AlertClient`` has done so far: counts taken from the answers it received, for
/// logging, debugging and tests.
///
/// ```swift
/// let spec = try await client.render(catalog: "app", alert: "questionExit")
/// print(client.statistics.notModified)   // 304s answered from the render cache
/// ```
public struct AlertClientStatistics: Sendable, Equatable {
    /// HTTP requests sent (every call sends one).
    public var requests = 0
    /// Render answers that were `304 Not Modified`: the cached spec was returned without being
    /// downloaded or decoded again.
    public var notModified = 0
    /// Specs decoded and validated from bytes: each `200` render and each delivery.
    public var specsDecoded = 0
    /// Renderings held in the cache now (at most the configured size).
    public var cachedRenders = 0

    public init() {}
}
