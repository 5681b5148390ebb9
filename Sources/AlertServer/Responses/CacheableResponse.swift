import MicroHTTP

/// A 200 answer whose bytes and entity tag were made once (a rendered spec, a catalog listing),
/// with `ETag` and `Cache-Control: public, max-age=N`; a request whose `If-None-Match` names the
/// tag (weakly, in a list, or `*`) gets 304 with the same validators and caching headers and no
/// body (RFC 9110 §13.1.2, §15.4.5). A 304 carries what guides a cache's update (`ETag`,
/// `Cache-Control`, `Vary`) and no other metadata of the representation: §15.4.5 asks a sender
/// not to, and a cache keeps the stored `Content-Language` (the tag already names the locale).
///
/// ```swift
/// let listing = CacheableResponse(json: bytes, etag: EntityTag.strong(for: bytes), maxAge: 300)
/// router.add("GET", "/v1/catalogs") { _ in listing }
/// ```
struct CacheableResponse: ResponseGenerator, Sendable {
    /// Sent without a copy (see `SharedBytes`).
    var body: SharedBytes
    var etag: String
    var cacheControl: String
    /// The headers of a 304: `ETag`, `Cache-Control` and `Vary` when given.
    var notModifiedHeaders: HTTPHeaders
    /// The headers of a 200: `ETag`, `Cache-Control`, the `extra` ones and `Content-Type`.
    var headers: HTTPHeaders

    /// - Parameters:
    ///   - json: the body, `application/json`.
    ///   - etag: its strong tag, quoted (see `EntityTag.strong(for:)`).
    ///   - cacheControl: the `Cache-Control` value (see `publicCaching(maxAge:)`).
    ///   - extra: further headers of a 200 (`Content-Language`, `Vary`); a 304 repeats `Vary`.
    ///   - contentType: the body's type, JSON unless said otherwise (`/openapi.yaml` is YAML).
    init(json: [UInt8], etag: String, cacheControl: String, extra: HTTPHeaders = [:], contentType: String = "application/json") {
        self.init(json: SharedBytes(json), etag: etag, cacheControl: cacheControl, extra: extra, contentType: contentType)
    }

    init(
        json: SharedBytes, etag: String, cacheControl: String, extra: HTTPHeaders = [:], contentType: String = "application/json"
    ) {
        self.body = json
        self.etag = etag
        self.cacheControl = cacheControl
        var notModified: HTTPHeaders = ["ETag": etag, "Cache-Control": cacheControl]
        if let vary = extra["Vary"] { notModified.add("Vary", vary) }
        self.notModifiedHeaders = notModified
        var headers: HTTPHeaders = ["ETag": etag, "Cache-Control": cacheControl]
        for field in extra { headers.add(field.name, field.value) }
        headers.add("Content-Type", contentType)
        self.headers = headers
    }

    /// `public, max-age=N`: shared caches may keep the answer `maxAge` seconds.
    static func publicCaching(maxAge: Int) -> String { "public, max-age=\(maxAge)" }

    func response(for request: Request) throws -> HTTPResponse {
        response(revalidating: request.http.headers)
    }

    /// The 200, or the 304 when the request's headers hold an `If-None-Match` that the tag
    /// matches.
    func response(revalidating request: HTTPHeaders) -> HTTPResponse {
        if EntityTag.matches(request, etag) {
            // libmicrohttpd 0.9.75 writes `Content-Length: 0` on every 304 and offers no way to
            // leave it out. Giving it the 200's bytes instead would make it say their length,
            // which RFC 9110 §8.6 prefers, but parsers built on http-parser (wrk, older Node)
            // then wait for that many bytes of body that never come (measured: wrk stalls).
            return HTTPResponse(status: 304, headers: notModifiedHeaders, body: SharedBytes.empty)
        }
        return HTTPResponse(status: 200, headers: headers, body: body)
    }
}
