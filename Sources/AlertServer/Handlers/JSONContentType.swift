import Foundation
import MicroHTTP

/// The media types a request body may be sent in. Every body the API reads is JSON (validate,
/// token, enqueue, ack, hold), so a request that carries one must say `application/json` or a
/// `+json` type (`application/problem+json`, …), with any parameters (`; charset=utf-8`), or
/// say nothing: a body without `Content-Type` is read as JSON (raw clients and some libraries
/// send none). Anything else — a form (what `curl -d` sends unless told: use `curl --json`),
/// text, XML — is refused with 415 once the route is known, before auth and before the call
/// reads the body. An empty body is never refused for its type.
///
/// ```swift
/// try JSONContentType.require(request.http)   // throws APIError 415 for `Content-Type: text/plain`
/// ```
enum JSONContentType {
    /// Throws 415 when `request` has a body in a media type that is not JSON.
    static func require(_ request: HTTPRequest) throws {
        guard !request.body.isEmpty, let given = request.headers["Content-Type"] else { return }
        guard isJSON(given) else {
            throw APIError.unsupportedMediaType("The body must be JSON: send it as Content-Type: application/json.")
        }
    }

    /// Whether a `Content-Type` value names JSON: `application/json` or `application/…+json`.
    static func isJSON(_ value: String) -> Bool {
        let mediaType = (value.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false).first ?? "")
            .trimmingCharacters(in: .whitespaces).lowercased()
        guard mediaType.hasPrefix("application/") else { return false }
        let subtype = mediaType.dropFirst("application/".count)
        return subtype == "json" || (subtype.hasSuffix("+json") && subtype.count > "+json".count)
    }
}
