import AlertSpec
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension AlertClient {
    /// The alert `catalog/alert` rendered with `parameters` in `locale`
    /// (`GET /v1/catalogs/{catalog}/alerts/{alert}`), decoded and validated.
    ///
    /// The client remembers each rendering's `ETag` and spec per URL (up to
    /// ``AlertClientConfiguration/cacheSize``) and asks again with `If-None-Match`; when the
    /// server answers `304 Not Modified`, the spec decoded the first time comes back, with no
    /// download and no decoding.
    ///
    /// ```swift
    /// let spec = try await client.render(
    ///     catalog: "app", alert: "newMessages", parameters: ["count": .integer(3), "sender": .string("Ana")], locale: "fr")
    /// ```
    ///
    /// - Parameters:
    ///   - parameters: the alert's parameters (the catalog listing names them); sent as query
    ///     items in name order, so the same parameters always make the same URL.
    ///   - locale: a BCP 47 tag; the server picks the closest language the catalog has. Nil:
    ///     the server negotiates from `Accept-Language` (which URLSession fills from the app's
    ///     languages on iOS).
    /// - Throws: ``AlertClientError``: ``AlertClientError/Code/notFound`` for an unknown catalog
    ///   or alert, ``AlertClientError/Code/badRequest`` for a missing or mistyped parameter (the
    ///   problem names it), …
    public func render(
        catalog: String, alert: String, parameters: [String: ParameterValue] = [:], locale: String? = nil
    ) async throws -> AlertSpec {
        var query = parameters.sorted { $0.key < $1.key }.map { (name: $0.key, value: $0.value.description) }
        if let locale { query.append((name: "locale", value: locale)) }
        var request = try makeRequest("GET", Endpoint(segments: ["v1", "catalogs", catalog, "alerts", alert], query: query))
        let key = request.url?.absoluteString ?? ""
        let cached = state.withLock { $0.cache.entry(for: key) }
        if let cached { request.setValue(cached.etag, forHTTPHeaderField: "If-None-Match") }

        let answer = try await send(request)
        if answer.status == 304, let cached {
            state.withLock { $0.statistics.notModified += 1 }
            return cached.spec
        }
        guard answer.status == 200 else { throw answer.unexpected() }
        let spec = try ReceivedSpec.check(ReceivedSpec.decode(AlertSpec.self, from: answer.body))
        state.withLock { state in
            state.statistics.specsDecoded += 1
            if let etag = answer.header("ETag") {
                state.cache.store(spec, etag: etag, for: key)
            } else {
                state.cache.remove(key)
            }
        }
        return spec
    }
}
