import AlertQueue
import Foundation
import MicroHTTP

/// Who a request is, from its `Authorization: Bearer …` header, and what it may do: the admin
/// token opens every call; a session token opens its own session's `next`, `ack`, `hold` and
/// `GET queue`, nothing else. A call a session token opens marks its session seen (`seen`).
public struct Access: Sendable {
    public let credentials: Credentials
    public let tokens: SessionTokens
    /// What a token's expiry is checked against.
    let clock: any AlertClock
    /// Where the sessions that call with their own token are noted as seen; nil notes none.
    let seen: SeenSessions?

    public init(credentials: Credentials, clock: any AlertClock = SystemClock(), seen: SeenSessions? = nil) {
        self.credentials = credentials
        self.tokens = SessionTokens(secret: credentials.sessionSecret)
        self.clock = clock
        self.seen = seen
    }

    enum Caller: Equatable {
        case admin
        case session(String)
    }

    /// The caller, or 401 without a token or with one that is not valid.
    func caller(of request: Request) throws -> Caller {
        try caller(of: request, now: clock.now())
    }

    /// The caller, its token's expiry judged at `now`.
    private func caller(of request: Request, now: Date) throws -> Caller {
        guard let header = request.http.headers["Authorization"], let token = Self.bearerToken(in: header) else {
            throw APIError.unauthorized("This call needs Authorization: Bearer <token>.")
        }
        if ConstantTime.equal(token, credentials.adminToken) { return .admin }
        if let session = tokens.session(of: token, now: now) { return .session(session) }
        throw APIError.unauthorized("The token is not valid, or it has expired.")
    }

    /// The token of `Bearer <token>` (the scheme in any case, blanks around the token ignored).
    /// Read over the header's bytes in place: through its `utf8` view, a third of the call's
    /// authorization (`make bench-instructions`).
    static func bearerToken(in header: String) -> String? {
        var header = header
        return header.withUTF8 { bytes in
            let scheme: StaticString = "bearer "
            guard bytes.count > scheme.utf8CodeUnitCount,
                HTTPHeaders.same(UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(bytes).prefix(scheme.utf8CodeUnitCount)), scheme)
            else { return nil }
            let isBlank = { (byte: UInt8) in byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
            var start = scheme.utf8CodeUnitCount, end = bytes.count
            while start < end, isBlank(bytes[start]) { start += 1 }
            while end > start, isBlank(bytes[end - 1]) { end -= 1 }
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
        }
    }

    /// Passes the admin only: 401 without a valid token, 403 for a session token.
    func requireAdmin(_ request: Request) throws {
        guard try caller(of: request) == .admin else {
            throw APIError.forbidden("A session token cannot make this call; it needs the admin token.")
        }
    }

    /// Passes the admin, or a session token of `session`: 403 for another session's token. A
    /// session that passes with its own token is seen now.
    func requireSession(_ session: String, _ request: Request, adminAllowed: Bool = false) throws {
        let now = clock.now()
        switch try caller(of: request, now: now) {
        case .admin where adminAllowed: return
        case .admin: throw APIError.forbidden("This call is made by the app, with its session token.")
        case .session(let own) where own == session:
            seen?.saw(own, at: now)
            return
        case .session: throw APIError.forbidden("This token opens another session.")
        }
    }
}
