import AlertCatalogs
import Dispatch
import Foundation
import Locking
import Logging

/// The one holder of the catalogs the server serves. Every handler reads `now` once per request
/// and works with that set to the end; a reload (`POST /v1/catalogs/reload`, SIGHUP) loads the
/// folder anew and swaps the whole set in one step, or keeps the old one when the folder has
/// problems.
///
/// ```swift
/// let current = try CurrentCatalogs(registry, source: CatalogSource(folder: folder), ...)
/// let served = current.now            // per request
/// switch current.reload(via: "signal") { case .success(let summary): …; case .failure(let error): … }
/// ```
public final class CurrentCatalogs: Sendable {
    private let served: Locked<ServedCatalogs>
    /// The folder reloads read; nil when the server has none (`--catalogs` not given).
    public let source: CatalogSource?
    /// Reloads run here, one at a time, off the HTTP workers.
    private let reloads = DispatchQueue(label: "alertd.catalog-reload")
    private let maxAge: Int
    private let keptCapacity: Int
    private let metrics: ServiceMetrics
    /// Reloads' lines, and items dropped because their alert is gone.
    let logger: Logger

    init(_ registry: CatalogRegistry, source: CatalogSource?, capacity: Int, maxAge: Int, metrics: ServiceMetrics, logger: Logger) throws {
        let alerts = RenderedAlerts(catalogs: registry, capacity: capacity, maxAge: maxAge, metrics: metrics)
        served = Locked(try ServedCatalogs(registry: registry, alerts: alerts, maxAge: maxAge, keptCapacity: capacity, folder: source))
        self.source = source
        self.maxAge = maxAge
        self.keptCapacity = capacity
        self.metrics = metrics
        self.logger = logger
    }

    /// The set to answer a request with.
    var now: ServedCatalogs { served.withLock { $0 } }

    /// The catalogs served now.
    public var registry: CatalogRegistry { now.registry }

    /// Loads the folder anew and swaps the catalogs, or keeps them and says why; logs and
    /// counts either way. `via` names what asked (`http`, `signal`) in the log line.
    public func reload(via: String) -> Result<CatalogReloadSummary, CatalogReloadError> {
        reloads.sync { swap(via: via) }
    }

    /// `reload(via:)` without holding the caller's thread.
    func reloadLater(via: String) async -> Result<CatalogReloadSummary, CatalogReloadError> {
        await withCheckedContinuation { continuation in
            reloads.async { continuation.resume(returning: self.swap(via: via)) }
        }
    }

    private func swap(via: String) -> Result<CatalogReloadSummary, CatalogReloadError> {
        guard let source else {
            metrics.catalogReloaded(ok: false)
            logger.error("catalogs not reloaded", metadata: ["via": "\(via)", "reason": "no catalog folder (--catalogs) is configured"])
            return .failure(.noFolder)
        }
        let old = now
        let loaded: CatalogSource.Loaded
        switch source.load(alongside: old.builtIn) {
        case .success(let result): loaded = result
        case .failure(let error):
            metrics.catalogReloaded(ok: false)
            logger.error("catalogs not reloaded", metadata: [
                "via": "\(via)", "folder": "\(source.folder.path)", "problems": "\(error.problems.count)",
                "kept": "\(old.registry.catalogs.count) catalogs served before"
            ])
            for problem in error.problems { logger.error("catalog problem", metadata: ["problem": "\(problem)"]) }
            for warning in error.warnings { logger.warning("\(warning)") }
            return .failure(.invalid(error))
        }
        let summary = CatalogReloadSummary(old: old, loaded: loaded)
        var generations: [String: Int] = [:]
        for catalog in loaded.registry.catalogs {
            let kept = old.alerts.generations[catalog.name]
            let same = loaded.sources[catalog.name].map { new in old.sources[catalog.name].map { $0.confirmed && $0 == new } ?? false }
            // Built-in catalogs never change; a file keeps its renderings only when provably the same bytes.
            generations[catalog.name] = (same ?? true) ? kept ?? old.nextGeneration : old.nextGeneration
        }
        let next: ServedCatalogs
        do {
            next = ServedCatalogs(
                registry: loaded.registry, alerts: old.alerts.reloaded(catalogs: loaded.registry, generations: generations),
                listings: try CatalogListings(catalogs: loaded.registry, maxAge: maxAge), kept: KeptAnswers(capacity: keptCapacity),
                sources: loaded.sources, nextGeneration: old.nextGeneration + 1)
        } catch {
            metrics.catalogReloaded(ok: false)
            logger.error("catalogs not reloaded", metadata: ["via": "\(via)", "error": "\(error)"])
            return .failure(.invalid(CatalogFileError(problems: [
                CatalogProblem(file: source.folder.relativePath, code: "unlistable", message: "The catalogs cannot be listed: \(error)")
            ])))
        }
        served.withLock { $0 = next }
        metrics.catalogReloaded(ok: true)
        for warning in loaded.files.flatMap(\.warnings) { logger.warning("\(warning)") }
        logger.info("catalogs reloaded", metadata: [
            "via": "\(via)", "catalogs": "\(summary.catalogs.count)",
            "changed": "\(summary.catalogs.filter(\.changed).map(\.name).joined(separator: ","))",
            "removed": "\(summary.removed.joined(separator: ","))",
        ])
        return .success(summary)
    }
}
