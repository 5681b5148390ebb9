import AlertQueue
import Foundation
import MicroHTTP

/// `GET /metrics`: the Prometheus text format (0.0.4), open like `/livez` and `/readyz` — it
/// holds counts and durations, never a token, a session id or a path, though it does tell how
/// busy the service is. The queue's census is read from the store at each scrape (one aggregate
/// query); when the store cannot be read, those gauges keep their last values.
struct MetricsHandlers {
    let metrics: ServiceMetrics
    let requests: RequestMetrics
    let queue: QueueServices

    static let contentType = "text/plain; version=0.0.4; charset=utf-8"

    func register(in router: inout Router) {
        let handlers = self
        router.addAsync("GET", "/metrics") { _ in await handlers.scrape() }
    }

    func scrape() async -> HTTPResponse {
        let census = try? await queue.store.census(now: queue.clock.now())
        metrics.update(census: census, waitingPolls: queue.polls.count, waitingReaders: queue.polls.feed.count)
        var text = ""
        requests.render(into: &text)
        var body = Array(text.utf8)
        body += metrics.render()
        return HTTPResponse(status: 200, headers: ["Content-Type": Self.contentType, "Cache-Control": "no-store"], body: body)
    }
}
