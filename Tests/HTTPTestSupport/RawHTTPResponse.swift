import Foundation

/// A parsed response.
struct RawHTTPResponse: Sendable {
    var version: String
    var status: Int
    var reason: String
    /// In the order received, names as sent.
    var headers: [(name: String, value: String)]
    var body: [UInt8]

    /// The first value of a header, matched case-insensitively.
    func header(_ name: String) -> String? {
        headers.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
    }

    /// Every value of a header, matched case-insensitively.
    func headerValues(_ name: String) -> [String] {
        headers.filter { $0.name.caseInsensitiveCompare(name) == .orderedSame }.map(\.value)
    }

    /// The media type of `Content-Type`, lowercased, without parameters (`application/json`).
    var mediaType: String? {
        header("Content-Type").map {
            ($0.split(separator: ";").first.map(String.init) ?? $0).trimmingCharacters(in: .whitespaces).lowercased()
        }
    }

    /// The response says the server will close the connection.
    var closesConnection: Bool {
        header("Connection")?.lowercased().split(separator: ",").contains { $0.trimmingCharacters(in: .whitespaces) == "close" }
            ?? false
    }

    var text: String { String(decoding: body, as: UTF8.self) }

    /// Decodes the body as JSON into `T`.
    func decode<T: Decodable>(_ type: T.Type = T.self) throws -> T {
        try JSONDecoder().decode(T.self, from: Data(body))
    }

    /// The body as a JSON object (JSONSerialization), or nil when it is not one.
    func jsonObject() throws -> [String: Any]? {
        try JSONSerialization.jsonObject(with: Data(body)) as? [String: Any]
    }
}

enum RawHTTPError: Error, CustomStringConvertible {
    case system(String, Int32)
    case timeout
    case closed(String)
    case malformed(String)

    var description: String {
        switch self {
        case .system(let call, let code): "\(call) failed: \(String(cString: strerror(code))) (errno \(code))"
        case .timeout: "timed out waiting for the server"
        case .closed(let what): what
        case .malformed(let what): "malformed response: \(what)"
        }
    }
}
