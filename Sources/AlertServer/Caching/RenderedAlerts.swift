import AlertCatalogs
import AlertQueue
import AlertSpec
import MicroHTTP

/// Catalog alerts rendered once and kept: an alert with given parameters in a given locale is
/// always the same spec, so the queue checks an enqueued alert, delivers it and looks up its
/// actions without rendering, validating or encoding it again.
///
/// ```swift
/// let alerts = RenderedAlerts(catalogs: registry)
/// let checked = try alerts.check("app/newMessages", ["count": .integer(3), "sender": .string("Ann")]).get()
/// let shown = try alerts.rendering("app/newMessages", parameters, asked: ClientAsk(locale: "fr"))
/// shown.json   // the spec's bytes, as `OrderedJSONEncoder` writes them, sent without a copy
/// ```
struct RenderedAlerts: Sendable {
    private(set) var catalogs: CatalogRegistry
    /// Each catalog's generation, part of every key: what a catalog rendered before it was
    /// reloaded is never found again, even when a request in flight keeps it after the reload.
    private(set) var generations: [String: Int]
    /// The `Cache-Control` of every rendering's response.
    let cacheControl: String
    private let checks: BoundedCache<AlertKey, CheckedAlert>
    private let renderings: BoundedCache<RenderKey, Rendering>
    private let contexts: BoundedCache<ContextKey, RenderContext>
    /// Counts the renderings' hits and misses (`alertd_render_cache_lookups_total`).
    private let metrics: ServiceMetrics?

    /// - Parameters:
    ///   - capacity: about how many renderings (alert, parameters, locale) are kept.
    ///   - maxAge: the `max-age` of a rendering's response, in seconds.
    init(catalogs: CatalogRegistry, capacity: Int = 4096, maxAge: Int = 300, metrics: ServiceMetrics? = nil) {
        self.catalogs = catalogs
        self.generations = Dictionary(catalogs.catalogs.map { ($0.name, 0) }, uniquingKeysWith: { first, _ in first })
        self.cacheControl = CacheableResponse.publicCaching(maxAge: maxAge)
        self.metrics = metrics
        self.checks = BoundedCache(capacity: capacity)
        self.renderings = BoundedCache(capacity: capacity)
        self.contexts = BoundedCache(capacity: Self.negotiationCapacity)
    }

    /// The same caches serving `catalogs`, a reloaded set: what was kept of a catalog whose
    /// generation changed, or that is gone, is dropped; the other catalogs keep theirs.
    func reloaded(catalogs: CatalogRegistry, generations: [String: Int]) -> RenderedAlerts {
        var next = self
        next.catalogs = catalogs
        next.generations = generations
        checks.removeAll { generations[AlertID($0.alert)?.catalog ?? ""] != $0.generation }
        renderings.removeAll { generations[$0.catalog] != $0.generation }
        contexts.removeAll { generations[$0.catalog] != $0.generation }
        return next
    }

    /// Negotiated locales kept: clients send few distinct `Accept-Language` values.
    static let negotiationCapacity = 1024

    struct AlertKey: Hashable, Sendable {
        var alert: String
        var generation: Int
        var parameters: [String: ParameterValue]
    }

    private struct ContextKey: Hashable, Sendable {
        var catalog: String
        var generation: Int
        var asked: ClientAsk
    }

    /// The catalog and type apart (a hit need not join them), the parameters, the context
    /// (locale, system words' locale, device: `other` unless the catalog varies by device).
    private struct RenderKey: Hashable, Sendable {
        var catalog: String
        var generation: Int
        var type: String
        var parameters: [String: ParameterValue]
        var context: RenderContext
    }

    /// What the queue needs of an alert it accepts.
    struct CheckedAlert: Sendable {
        var priority: Int
        var lane: Lane
        /// The alert's own dedupe key, else its id with its canonical parameters.
        var dedupeKey: String
        /// How often the alert may be shown, as its catalog declares it.
        var pacing: Pacing
    }

    /// One alert in one locale, ready to send.
    ///
    /// A class: the cache hands the same rendering to every hit, and copying a struct this size
    /// (the spec's every field retained) was a few percent of a hit.
    final class Rendering: Sendable {
        let spec: AlertSpec
        /// `spec` encoded; every response that sends it shares these bytes.
        let json: SharedBytes
        /// The strong entity tag of `json`, quoted (see `EntityTag.strong(for:)`).
        let etag: String
        /// The render endpoint's answer, headers and all, made once: a cache hit only sends it.
        let response: CacheableResponse

        init(spec: AlertSpec, cacheControl: String) throws {
            self.spec = spec
            let json = try OrderedJSONEncoder().encode(spec)
            self.json = SharedBytes(json)
            self.etag = EntityTag.strong(for: json)
            self.response = CacheableResponse(
                json: self.json, etag: etag, cacheControl: cacheControl,
                extra: ["Content-Language": spec.locale, "Vary": "Accept-Language"])
        }

        /// The same alert with another priority (an item queued with its own).
        func with(priority: Int) throws -> Rendering {
            guard priority != spec.priority else { return self }
            var spec = spec
            spec.priority = priority
            return try Rendering(spec: spec, cacheControl: response.cacheControl)
        }

        /// The action the client acknowledges with `id` (a button's id; for cards,
        /// `<page>.action` or `<page>.alternative`), or nil when the alert has none such.
        ///
        /// Looked up when an item is acknowledged, not kept: a rendering is made far more often
        /// than acknowledged (every cache miss), and an alert has a handful of actions.
        func action(_ id: String) -> AlertActionType? {
            switch spec.body {
            case .alert(let dialog): return dialog.actions.first { $0.id == id }?.action
            case .sheet(let sheet): return (sheet.options + [sheet.cancel]).first { $0.id == id }?.action
            case .card(let card):
                for page in card.pages {
                    if id == page.id + ".action", let button = page.actionButton { return button.action }
                    if id == page.id + ".alternative", let button = page.alternativeButton { return button.action }
                }
                return nil
            case .hud, .toast: return nil
            }
        }

        /// The role of the action `id` names, for an item's timeline: a button's or option's own;
        /// a card's action button is `primary`, its alternative `default`.
        func role(of id: String) -> ActionRole? {
            switch spec.body {
            case .alert(let dialog): return dialog.actions.first { $0.id == id }?.role
            case .sheet(let sheet): return (sheet.options + [sheet.cancel]).first { $0.id == id }?.role
            case .card(let card):
                for page in card.pages {
                    if id == page.id + ".action", page.actionButton != nil { return .primary }
                    if id == page.id + ".alternative", page.alternativeButton != nil { return .default }
                }
                return nil
            case .hud, .toast: return nil
            }
        }
    }

    /// Whether `alert` (`catalog/type`) exists and `parameters` build it (rendered once, in the
    /// catalog's source language); the problems otherwise, with pointers into an enqueue body.
    func check(_ alert: String, _ parameters: [String: ParameterValue]) -> Result<CheckedAlert, Issues> {
        // `orMake` hashes the key (its parameters among it) once, for the lookup and the insert.
        do throws(Issues) {
            let key = AlertKey(alert: alert, generation: generation(of: AlertID(alert)?.catalog), parameters: parameters)
            return .success(try checks.value(for: key) { () throws(Issues) in
                try Self.check(alert, parameters, in: catalogs).get()
            })
        } catch {
            return .failure(error)
        }
    }

    /// The alert rendered for what the client asked, negotiated against its catalog.
    func rendering(_ alert: String, _ parameters: [String: ParameterValue], asked: ClientAsk) throws -> Rendering {
        guard let id = AlertID(alert) else { throw CatalogError.unknownCatalog(alert) }
        guard let catalog = catalogs[id.catalog] else { throw CatalogError.unknownCatalog(id.catalog) }
        return try rendering(of: id.type, in: catalog, parameters, context: context(in: catalog, asked: asked))
    }

    /// What `catalog` renders for what the client asked (`AlertCatalog.context(for:…)`), worked
    /// out once per distinct ask (parsing and sorting `Accept-Language` is not free) and kept,
    /// bounded.
    func context(in catalog: any AlertCatalog, asked: ClientAsk) -> RenderContext {
        contexts.value(for: ContextKey(catalog: catalog.name, generation: generation(of: catalog.name), asked: asked)) {
            catalog.context(for: asked.locale, acceptLanguage: asked.acceptLanguage, device: asked.device)
        }
    }

    /// `type` of `catalog` rendered for `context`, already negotiated, from the cache when it is
    /// there. The render endpoint and the queue share it; the parameters are a dictionary, so
    /// their order in a query does not matter.
    func rendering(of type: String, in catalog: any AlertCatalog, _ parameters: [String: ParameterValue], context: RenderContext) throws -> Rendering {
        let key = RenderKey(
            catalog: catalog.name, generation: generation(of: catalog.name), type: type, parameters: parameters, context: context)
        // `orMake` hashes the key once for the lookup and the insert of a miss.
        var missed = false
        let rendering = try renderings.value(for: key) {
            missed = true
            metrics?.renderCacheMiss()
            return try Rendering(spec: catalog.render(type: type, parameters: parameters, in: context), cacheControl: cacheControl)
        }
        if !missed { metrics?.renderCacheHit() }
        return rendering
    }

    /// The generation of the catalog named `name`; -1 for none (such a key is never made twice
    /// with a catalog behind it).
    private func generation(of name: String?) -> Int {
        name.flatMap { generations[$0] } ?? -1
    }

    /// Counts a rendering answered again from outside this cache (`KeptAnswers`) as this
    /// cache's hit: it is one, a step earlier.
    func countHit() { metrics?.renderCacheHit() }

    /// Problems found checking an alert (a `Result` failure needs an `Error`).
    struct Issues: Error {
        var issues: [SpecIssue]
    }

    private static func check(_ alert: String, _ parameters: [String: ParameterValue], in catalogs: CatalogRegistry) -> Result<CheckedAlert, Issues> {
        guard let id = AlertID(alert), let catalog = catalogs[id.catalog], let entry = catalog.entry(id.type) else {
            return .failure(Issues(issues: [SpecIssue(pointer: "/alert", code: "unknown-alert", message: "There is no alert \"\(alert)\".")]))
        }
        do {
            let (draft, alertsKey) = try catalog.draftAndDedupeKey(type: id.type, parameters: parameters, locale: catalog.sourceLanguage)
            let key: String
            if let alertsKey {
                key = "alert:\(id.catalog):\(alertsKey)"
            } else {
                let canonical = (try? OrderedJSONEncoder().encode(ParameterList(parameters))).map { String(decoding: $0, as: UTF8.self) }
                key = "alert:\(alert)?\(canonical ?? "")"
            }
            return .success(CheckedAlert(priority: draft.priority, lane: draft.kind.lane, dedupeKey: key, pacing: entry.pacing))
        } catch let error as ParameterError {
            return .failure(Issues(issues: [
                SpecIssue(pointer: "/params/" + JSONPointer.escape(error.parameter), code: error.code, message: error.description)
            ]))
        } catch let error as InvalidSpec {
            return .failure(Issues(issues: error.issues.map {
                SpecIssue(pointer: "/params", code: $0.code, message: "These parameters make the alert break a rule at \($0.pointer): \($0.message)")
            }))
        } catch {
            return .failure(Issues(issues: [SpecIssue(pointer: "/alert", code: "unrenderable", message: "\(alert) cannot be rendered.")]))
        }
    }
}
