import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A URL of the API under the configured base: path segments and query items, each
/// percent-encoded in full (only RFC 3986's unreserved characters stay as they are, so a `+`
/// or `&` in a parameter value arrives as sent).
struct Endpoint {
    var segments: [String]
    var query: [(name: String, value: String)] = []

    func url(under base: URL) throws -> URL {
        guard var components = URLComponents(url: base, resolvingAgainstBaseURL: true) else {
            throw AlertClientError.transport(URLError(.badURL))
        }
        var basePath = components.percentEncodedPath
        while basePath.hasSuffix("/") { basePath.removeLast() }
        components.percentEncodedPath = basePath + "/" + segments.map(Self.encode).joined(separator: "/")
        components.percentEncodedQuery =
            query.isEmpty ? nil : query.map { Self.encode($0.name) + "=" + Self.encode($0.value) }.joined(separator: "&")
        guard let url = components.url else {
            throw AlertClientError.transport(URLError(.badURL))
        }
        return url
    }

    private static let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    private static func encode(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? text
    }
}
