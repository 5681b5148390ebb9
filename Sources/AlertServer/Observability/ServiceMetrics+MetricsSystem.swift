import Metrics
import Prometheus

extension ServiceMetrics {
    /// Makes this registry the backend of swift-metrics for the whole process (once per
    /// process, as swift-metrics requires): whatever reports through it shows on `/metrics`.
    public func bootstrapMetricsSystem() {
        MetricsSystem.bootstrap(PrometheusMetricsFactory(registry: registry))
    }
}
