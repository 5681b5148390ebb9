import Foundation
import MicroHTTP

/// Who a request is, from its `Authorization: Bearer …` header, and what it may do: the admin
/// token opens every call; a session token opens its own session's `next`, `ack`, `hold` and
/// `GET queue`, nothing else.
public struct Access: Sendable {
    public let credentials: Credentials
    public let tokens: SessionTokens

    public init(credentials: Credentials) {
        self.credentials = credentials
        self.tokens = SessionTokens(secret: credentials.sessionSecret)
    }

    enum Caller: Equatable {
        case admin
        case session(String)
    }

    /// The caller, or 401 without a token or with one that is not valid.
    func caller(of request: Request, now: Date = Date()) throws -> Caller {
        guard let header = request.http.headers["Authorization"], let token = Self.bearerToken(in: header) else {
            throw APIError.unauthorized("This call needs Authorization: Bearer <token>.")
        }
        if ConstantTime.equal(token, credentials.adminToken) { return .admin }
        if let session = tokens.session(of: token, now: now) { return .session(session) }
        throw APIError.unauthorized("The token is not valid, or it has expired.")
    }

    /// The token of `Bearer <token>` (the scheme in any case, blanks around the token ignored).
    static func bearerToken(in header: String) -> String? {
        let scheme = "bearer ".utf8
        let bytes = header.utf8
        // `| 0x20` lowers ASCII letters and leaves the space as it is.
        guard bytes.count > scheme.count, zip(bytes, scheme).allSatisfy({ ($0 | 0x20) == $1 }) else { return nil }
        let isBlank = { (byte: UInt8) in byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
        // Indices, not reversed views: String(decoding:) of a view of a view goes byte by byte.
        var start = bytes.index(bytes.startIndex, offsetBy: scheme.count)
        var end = bytes.endIndex
        while start < end, isBlank(bytes[start]) { start = bytes.index(after: start) }
        while end > start, isBlank(bytes[bytes.index(before: end)]) { end = bytes.index(before: end) }
        return String(decoding: bytes[start..<end], as: UTF8.self)
    }

    /// Passes the admin only: 401 without a valid token, 403 for a session token.
    func requireAdmin(_ request: Request) throws {
        guard try caller(of: request) == .admin else {
            throw APIError.forbidden("A session token cannot make this call; it needs the admin token.")
        }
    }

    /// Passes the admin, or a session token of `session`: 403 for another session's token.
    func requireSession(_ session: String, _ request: Request, adminAllowed: Bool = false) throws {
        switch try caller(of: request) {
        case .admin where adminAllowed: return
        case .admin: throw APIError.forbidden("This call is made by the app, with its session token.")
        case .session(let own) where own == session: return
        case .session: throw APIError.forbidden("This token opens another session.")
        }
    }
}
