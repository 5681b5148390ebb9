import Logging
import MicroHTTP

/// What alertd does with every finished request: counts it in `RequestMetrics` and, at
/// `--log-level info` or below, writes its line: method, path (never the query string, which
/// may carry anything a client typed), status, body bytes, duration, request id and route. No
/// header is logged: tokens travel in `Authorization`.
///
/// A class: the server holds it as `any HTTPObserver` and calls it three times a request, and a
/// struct of this size would be copied out of that box, its references retained, each time.
final class RequestObserver: HTTPObserver {
    let metrics: RequestMetrics
    let logger: Logger
    /// Decided once: the level cannot change while the server runs.
    let logsRequests: Bool

    init(metrics: RequestMetrics, logger: Logger) {
        self.metrics = metrics
        self.logger = logger
        self.logsRequests = logger.logLevel <= .info
    }

    func attach(_ counts: HTTPServerCounts) { metrics.attach(counts) }

    func finished(_ request: FinishedRequest) {
        metrics.record(route: request.route, status: request.status, nanoseconds: request.nanoseconds)
        guard logsRequests else { return }
        let route = request.route.flatMap { metrics.routes.indices.contains($0) ? metrics.routes[$0].pattern : nil }
        logger.info(
            "request",
            metadata: [
                "method": .string(request.method),
                "path": .string(request.path),
                "status": .stringConvertible(request.status),
                "bytes": .stringConvertible(request.bodyBytes),
                "duration_ms": .stringConvertible(Milliseconds(nanoseconds: request.nanoseconds)),
                "request_id": .string(request.requestID),
                "route": .string(route ?? "unmatched"),
            ])
    }
}
