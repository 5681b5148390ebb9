import AlertCatalogs

/// One set of catalogs as the server serves it: the registry and everything made from it (the
/// listings, the render caches' view of it, the kept answers). Never changed once made: a
/// reload makes a new one and swaps it in (`CurrentCatalogs`), so a request that read it
/// finishes with the catalogs it started with.
final class ServedCatalogs: Sendable {
    let registry: CatalogRegistry
    /// Renderings, checks and negotiated locales, keyed by each catalog's generation.
    let alerts: RenderedAlerts
    /// The catalog routes' listings, encoded once per set.
    let listings: CatalogListings
    /// Answers kept by request target: new with every set, so none outlives what it answered from.
    let kept: KeptAnswers
    /// What each file catalog was read from, by catalog name (see `CatalogSource`).
    let sources: [String: CatalogSource.Fingerprint]
    /// The generation the next reload gives a catalog that changed.
    let nextGeneration: Int

    init(registry: CatalogRegistry, alerts: RenderedAlerts, listings: CatalogListings, kept: KeptAnswers,
         sources: [String: CatalogSource.Fingerprint], nextGeneration: Int) {
        self.registry = registry
        self.alerts = alerts
        self.listings = listings
        self.kept = kept
        self.sources = sources
        self.nextGeneration = nextGeneration
    }

    /// The first set, as the server starts with it. The file catalogs' sources are read now,
    /// after they were loaded: not known to match what was loaded, so the first reload makes
    /// their renderings anew whatever it finds.
    convenience init(registry: CatalogRegistry, alerts: RenderedAlerts, maxAge: Int, keptCapacity: Int, folder: CatalogSource?) throws {
        let read = folder?.fingerprints() ?? [:]
        var sources: [String: CatalogSource.Fingerprint] = [:]
        for catalog in registry.catalogs where catalog is FileCatalog {
            sources[catalog.name] = (read[catalog.name] ?? .unknown).unconfirmed
        }
        self.init(
            registry: registry, alerts: alerts, listings: try CatalogListings(catalogs: registry, maxAge: maxAge),
            kept: KeptAnswers(capacity: keptCapacity), sources: sources, nextGeneration: 1)
    }

    /// The catalogs compiled in (every catalog not read from a file): a reload keeps them as they are.
    var builtIn: [any AlertCatalog] { registry.catalogs.filter { !($0 is FileCatalog) } }
}
