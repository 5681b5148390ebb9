import Locking
import MicroHTTP

/// Requests by route and status, and their durations by route, kept so that counting one costs
/// three relaxed atomic additions: no lock, no allocation, no lookup by string. The tables are
/// made once, a row per route (the router's index, plus one for `unmatched`), a column per status
/// (100…599) or duration bucket; a scrape renders the rows that were used.
///
/// swift-prometheus' `Histogram` takes a lock for every observation (its buckets are an array
/// behind a `NIOLock`), so the duration histogram is kept here, in atomics, and rendered in the
/// Prometheus text format by `render(into:)`.
final class RequestMetrics: Sendable {
    /// A route's labels: its method and its pattern (`/v1/catalogs/{catalog}`).
    struct Route: Sendable {
        var method: String
        var pattern: String
    }

    /// The routes by index; the row after the last is `unmatched`.
    let routes: [Route]

    /// Upper bounds of the duration buckets, in nanoseconds, and as written in `le`.
    static let bounds: [UInt64] = [
        100_000, 250_000, 500_000, 1_000_000, 2_500_000, 5_000_000, 10_000_000, 25_000_000, 50_000_000,
        100_000_000, 250_000_000, 500_000_000, 1_000_000_000, 2_500_000_000, 5_000_000_000, 10_000_000_000,
        30_000_000_000,
    ]
    static let boundLabels = [
        "0.0001", "0.00025", "0.0005", "0.001", "0.0025", "0.005", "0.01", "0.025", "0.05", "0.1", "0.25", "0.5", "1",
        "2.5", "5", "10", "30",
    ]
    private static let statuses = 100..<600

    private let counts: AtomicCounters
    /// Per route: one count per bound, then one past the last bound.
    private let buckets: AtomicCounters
    /// Per route: nanoseconds spent.
    private let sums: AtomicCounters
    /// The server's own counts, once it started (read at scrape time only).
    private let server = Locked<HTTPServerCounts?>(nil)

    init(routes: [Route]) {
        self.routes = routes
        let rows = routes.count + 1
        counts = AtomicCounters(count: rows * Self.statuses.count)
        buckets = AtomicCounters(count: rows * (Self.bounds.count + 1))
        sums = AtomicCounters(count: rows)
    }

    /// Counts one finished request.
    func record(route: Int?, status: Int, nanoseconds: UInt64) {
        let row = route.flatMap { routes.indices.contains($0) ? $0 : nil } ?? routes.count
        let column = Self.statuses.contains(status) ? status - Self.statuses.lowerBound : 0
        counts.add(1, at: row * Self.statuses.count + column)
        var bucket = 0
        while bucket < Self.bounds.count, nanoseconds > Self.bounds[bucket] { bucket += 1 }
        buckets.add(1, at: row * (Self.bounds.count + 1) + bucket)
        sums.add(Int(truncatingIfNeeded: nanoseconds), at: row)
    }

    func attach(_ counts: HTTPServerCounts) { server.withLock { $0 = counts } }

    /// How many requests of `route` (nil: unmatched) were answered `status`.
    func count(route: Int?, status: Int) -> Int {
        counts[(route ?? routes.count) * Self.statuses.count + status - Self.statuses.lowerBound]
    }

    /// The series in the Prometheus text format, rows that were used only.
    func render(into text: inout String) {
        text += """
            # HELP alertd_http_requests_in_flight Requests whose head was read and that are not over yet (waiting long-polls and this scrape included).
            # TYPE alertd_http_requests_in_flight gauge
            alertd_http_requests_in_flight \(server.withLock { $0?.requestsInFlight ?? 0 })

            """
        text += """
            # HELP alertd_http_requests_total Requests answered, by route (the router's pattern; unmatched for unknown paths, wrong methods and refusals) and status.
            # TYPE alertd_http_requests_total counter

            """
        for row in 0...routes.count {
            for column in 0..<Self.statuses.count {
                let value = counts[row * Self.statuses.count + column]
                guard value > 0 else { continue }
                text += "alertd_http_requests_total{\(labels(row)),status=\"\(column + Self.statuses.lowerBound)\"} \(value)\n"
            }
        }
        text += """
            # HELP alertd_http_request_duration_seconds Time from a request's head to its response sent, by route (a long-poll's wait included).
            # TYPE alertd_http_request_duration_seconds histogram

            """
        for row in 0...routes.count {
            var cumulative = 0
            var lines = ""
            for bucket in 0...Self.bounds.count {
                cumulative += buckets[row * (Self.bounds.count + 1) + bucket]
                let bound = bucket < Self.bounds.count ? Self.boundLabels[bucket] : "+Inf"
                lines += "alertd_http_request_duration_seconds_bucket{\(labels(row)),le=\"\(bound)\"} \(cumulative)\n"
            }
            guard cumulative > 0 else { continue }
            text += lines
            text += "alertd_http_request_duration_seconds_sum{\(labels(row))} \(Double(sums[row]) / 1e9)\n"
            text += "alertd_http_request_duration_seconds_count{\(labels(row))} \(cumulative)\n"
        }
    }

    /// `method="GET",route="/v1/catalogs"`, or `route="unmatched"`. Patterns hold no `"` or `\`.
    private func labels(_ row: Int) -> String {
        guard row < routes.count else { return #"route="unmatched""# }
        return "method=\"\(routes[row].method)\",route=\"\(routes[row].pattern)\""
    }
}
