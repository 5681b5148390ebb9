import AlertQueue
import AlertSpec
import Prometheus

/// The series of `/metrics` that are not per request: events counted as they happen (render
/// cache, queue steps, store failures) in a swift-prometheus registry, and what is read at
/// scrape time (queue items by lane and state, waiting long-polls).
///
/// `alertd serve` also bootstraps swift-metrics with this registry, so anything in the process
/// that reports through swift-metrics shows on `/metrics` as well.
///
/// ```swift
/// let metrics = ServiceMetrics()
/// MetricsSystem.bootstrap(PrometheusMetricsFactory(registry: metrics.registry))
/// let service = try AlertService(catalogs: registry, queue: queue, metrics: metrics)
/// ```
public final class ServiceMetrics: Sendable {
    public let registry: PrometheusCollectorRegistry

    private let renderCacheHits: Counter
    private let renderCacheMisses: Counter
    private let enqueues: Counter
    private let deliveries: Counter
    private let acks: Counter
    private let storeErrors: [StoreFailure: Counter]
    private let catalogReloads: [Bool: Counter]
    private let longPolls: Gauge
    private let items: [Lane: [ItemState: Gauge]]

    public init(registry: PrometheusCollectorRegistry = PrometheusCollectorRegistry()) {
        self.registry = registry
        let cacheLookups = Self.name("alertd_render_cache_lookups", unit: "total", """
            Rendered alerts (alert, parameters, locale) looked up in the render cache, by result.
            """)
        renderCacheHits = registry.makeCounter(descriptor: cacheLookups, labels: [("result", "hit")])
        renderCacheMisses = registry.makeCounter(descriptor: cacheLookups, labels: [("result", "miss")])
        enqueues = registry.makeCounter(descriptor: Self.name("alertd_queue_enqueues", unit: "total", """
            Items queued by this instance (duplicates that returned an existing ticket not counted).
            """))
        deliveries = registry.makeCounter(descriptor: Self.name("alertd_queue_deliveries", unit: "total", """
            Items delivered by this instance's next calls (redeliveries after a lease included).
            """))
        acks = registry.makeCounter(descriptor: Self.name("alertd_queue_acks", unit: "total", "Items acknowledged through this instance."))
        let storeErrorsName = Self.name("alertd_store_errors", unit: "total", """
            Requests answered 503 because the queue store could not serve them (readyz included), by reason.
            """)
        storeErrors = Dictionary(uniqueKeysWithValues: StoreFailure.allCases.map {
            ($0, registry.makeCounter(descriptor: storeErrorsName, labels: [("reason", $0.rawValue)]))
        })
        let reloadsName = Self.name("alertd_catalog_reloads", unit: "total", """
            Catalog reloads (POST /v1/catalogs/reload, SIGHUP), by result: ok swapped the catalogs, failed kept them.
            """)
        catalogReloads = [
            true: registry.makeCounter(descriptor: reloadsName, labels: [("result", "ok")]),
            false: registry.makeCounter(descriptor: reloadsName, labels: [("result", "failed")]),
        ]
        longPolls = registry.makeGauge(descriptor: Self.name("alertd_long_polls_waiting", unit: "", """
            next requests suspended on this instance, waiting for an item or their deadline.
            """))
        let census = Self.name("alertd_queue_items", unit: "", """
            Live items in the whole store (every instance's), by lane and state, counted at scrape time: queued \
            and presenting are the queues' depth; expired, queued items whose TTL has passed and that no step \
            has marked yet.
            """)
        var items: [Lane: [ItemState: Gauge]] = [:]
        for lane in Lane.allCases {
            for state in QueueCensus.states {
                items[lane, default: [:]][state] = registry.makeGauge(
                    descriptor: census, labels: [("lane", lane.rawValue), ("state", state.rawValue)])
            }
        }
        self.items = items
    }

    /// A series' name (`metric_unit`) and its `# HELP` text.
    private static func name(_ metric: String, unit: String, _ help: String) -> MetricNameDescriptor {
        MetricNameDescriptor(metricName: metric, unitName: unit, helpText: help)
    }

    // Events, each one relaxed atomic addition.
    func renderCacheHit() { renderCacheHits.increment() }
    func renderCacheMiss() { renderCacheMisses.increment() }
    func enqueued() { enqueues.increment() }
    func delivered() { deliveries.increment() }
    func acknowledged() { acks.increment() }
    func storeFailed(_ failure: StoreFailure) { storeErrors[failure]?.increment() }
    func catalogReloaded(ok: Bool) { catalogReloads[ok]?.increment() }

    /// Sets the scrape-time gauges: the store's census (nil when the store could not be read:
    /// those gauges keep their last values) and the waiting long-polls.
    func update(census: QueueCensus?, waitingPolls: Int) {
        longPolls.set(to: Double(waitingPolls))
        guard let census else { return }
        for (lane, states) in items {
            for (state, gauge) in states { gauge.set(to: Double(census[lane, state])) }
        }
    }

    /// The registry's series in the Prometheus text format.
    func render() -> [UInt8] {
        var bytes: [UInt8] = []
        registry.emit(into: &bytes)
        return bytes
    }
}
