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
    /// Read byte by byte, in place (every request with a body passes here; Foundation's trimming
    /// and lowercasing cost more than the rest of the check, and arrays of the bytes 2,800
    /// instructions an enqueue under `make bench-instructions`).
    static func isJSON(_ value: String) -> Bool {
        var value = value
        return value.withUTF8 { bytes in
            var end = bytes.firstIndex(of: UInt8(ascii: ";")) ?? bytes.count
            var start = 0
            let isBlank = { (byte: UInt8) in byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
            while start < end, isBlank(bytes[start]) { start += 1 }
            while end > start, isBlank(bytes[end - 1]) { end -= 1 }
            let mediaType = UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(bytes)[start..<end])
            guard HTTPHeaders.same(UnsafeRawBufferPointer(rebasing: mediaType.prefix(12)), "application/") else { return false }
            let subtype = UnsafeRawBufferPointer(rebasing: mediaType.dropFirst(12))
            return HTTPHeaders.same(subtype, "json")
                || (subtype.count > 5 && HTTPHeaders.same(UnsafeRawBufferPointer(rebasing: subtype.suffix(5)), "+json"))
        }
    }
}
