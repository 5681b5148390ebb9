import AlertQueue
import AlertSpec
import Locking
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
    private let feedReaders: Gauge
    private let items: [Lane: [ItemState: Gauge]]
    private static var outcomesName: MetricNameDescriptor {
        name("alertd_alert_outcomes", unit: "total", """
        Outcomes per alert (catalog/type, or adhoc for an ad-hoc spec), counted by this instance's roll-up \
        of the event feed: enqueued, delivered, acknowledged, dismissed (acks with no action or a cancel \
        action), expired, cancelled, dead. Instances sharing a store each count a part: sum them.
        """)
    }
    private let outcomes = Locked<[OutcomeTotal: Counter]>([:])

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
        feedReaders = registry.makeGauge(descriptor: Self.name("alertd_feed_readers_waiting", unit: "", """
            GET /v1/events requests suspended on this instance, waiting for an event or their deadline.
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

    /// Adds a roll-up's counts to `alertd_alert_outcomes_total`; a series is made the first time
    /// its alert and outcome come up (alerts are the catalogs' and `adhoc`: a bounded set).
    func countOutcomes(_ totals: [OutcomeTotal: Int]) {
        for (total, count) in totals where count > 0 {
            let counter = outcomes.withLock { counters in
                if let counter = counters[total] { return counter }
                let counter = registry.makeCounter(
                    descriptor: Self.outcomesName, labels: [("alert", total.alert), ("outcome", total.outcome.rawValue)])
                counters[total] = counter
                return counter
            }
            counter.increment(by: Int64(count))
        }
    }

    /// Sets the scrape-time gauges: the store's census (nil when the store could not be read:
    /// those gauges keep their last values), the waiting long-polls and feed readers.
    func update(census: QueueCensus?, waitingPolls: Int, waitingReaders: Int = 0) {
        longPolls.set(to: Double(waitingPolls))
        feedReaders.set(to: Double(waitingReaders))
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
