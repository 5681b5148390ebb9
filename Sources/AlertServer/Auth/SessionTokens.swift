import Crypto
import Foundation

/// Signs and checks session tokens: `v1.<session>.<expiry>.<signature>`, the session id in
/// base64url, the expiry in Unix seconds, the signature an HMAC-SHA256 of both under the
/// session secret. A token opens its own session until it expires; the same secret after a
/// restart keeps tokens valid.
public struct SessionTokens: Sendable {
    /// The secret's bytes (`SymmetricKey` is not `Sendable`; making one per use is cheap).
    private let secret: Data

    public init(secret: String) {
        self.secret = Data(secret.utf8)
    }

    private var key: SymmetricKey { SymmetricKey(data: secret) }

    /// A token for `session` that expires at `expiry`.
    public func issue(session: String, expiry: Date) -> String {
        let payload = Self.payload(session: session, expiry: Int64(expiry.timeIntervalSince1970))
        let signature = Data(HMAC<SHA256>.authenticationCode(for: Data(payload.utf8), using: key))
        return payload + "." + signature.base64URL
    }

    /// The session a token opens, or nil when it is malformed, forged or expired.
    public func session(of token: String, now: Date) -> String? {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4, parts[0] == "v1", let expiry = Int64(parts[2]),
            let sessionData = Data(base64URL: String(parts[1])), let session = String(data: sessionData, encoding: .utf8),
            let signature = Data(base64URL: String(parts[3]))
        else { return nil }
        let payload = Self.payload(session: session, expiry: expiry)
        // HMAC's own comparison is constant-time.
        guard HMAC<SHA256>.isValidAuthenticationCode(signature, authenticating: Data(payload.utf8), using: key),
            Double(expiry) > now.timeIntervalSince1970
        else { return nil }
        return session
    }

    private static func payload(session: String, expiry: Int64) -> String {
        "v1." + Data(session.utf8).base64URL + "." + String(expiry)
    }
}

/// Compares secrets in time independent of where they first differ.
enum ConstantTime {
    static func equal(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        var difference = UInt8(x.count == y.count ? 0 : 1)
        for index in 0..<max(x.count, y.count) {
            difference |= (index < x.count ? x[index] : 0) ^ (index < y.count ? y[index] : 0)
        }
        return difference == 0
    }
}

extension Data {
    var base64URL: String {
        base64EncodedString().replacing("+", with: "-").replacing("/", with: "_").replacing("=", with: "")
    }

    init?(base64URL text: String) {
        guard text.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }) else { return nil }
        var base64 = text.replacing("-", with: "+").replacing("_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        self.init(base64Encoded: base64)
    }
}
