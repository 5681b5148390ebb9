import Crypto
import Foundation

/// Signs and checks session tokens: `v1.<session>.<expiry>.<signature>`, the session id in
/// base64url, the expiry in Unix seconds, the signature an HMAC-SHA256 of both under the
/// session secret. A token opens its own session until it expires; the same secret after a
/// restart keeps tokens valid.
public struct SessionTokens: Sendable {
    /// HMAC-SHA256 keyed with the secret, before any data: copied for each token, so the key is
    /// prepared once (a copy of its state is safe to make from any thread; it is never changed).
    private struct PreparedMAC: @unchecked Sendable {
        let mac: HMAC<SHA256>
    }

    private let prepared: PreparedMAC

    public init(secret: String) {
        self.prepared = PreparedMAC(mac: HMAC<SHA256>(key: SymmetricKey(data: Data(secret.utf8))))
    }

    /// A token for `session` that expires at `expiry`.
    public func issue(session: String, expiry: Date) -> String {
        let payload = "v1." + Data(session.utf8).base64URL + "." + String(Int64(expiry.timeIntervalSince1970))
        return payload + "." + Data(signature(of: payload.utf8)).base64URL
    }

    /// The session a token opens, or nil when it is malformed, forged or expired.
    ///
    /// The signature covers the token's first three parts exactly as written, so no two
    /// spellings of one session and expiry are both valid; checking takes no Foundation call,
    /// since every request of an app passes here.
    public func session(of token: String, now: Date) -> String? {
        let bytes = Array(token.utf8)
        let dots = bytes.indices.filter { bytes[$0] == UInt8(ascii: ".") }
        guard dots.count == 3, bytes.starts(with: Array("v1.".utf8)), dots[0] == 2,
            let sessionBytes = Base64URL.decode(bytes[(dots[0] + 1)..<dots[1]]), !sessionBytes.isEmpty,
            let expiry = Int64(String(decoding: bytes[(dots[1] + 1)..<dots[2]], as: UTF8.self)),
            let claimed = Base64URL.decode(bytes[(dots[2] + 1)...]), claimed.count == SHA256.byteCount
        else { return nil }
        let expected = signature(of: bytes[..<dots[2]])
        // Constant time: every byte is compared whatever the first difference.
        guard zip(claimed, expected).reduce(UInt8(0), { $0 | ($1.0 ^ $1.1) }) == 0,
            Double(expiry) > now.timeIntervalSince1970,
            let session = String(validating: sessionBytes, as: UTF8.self)
        else { return nil }
        return session
    }

    private func signature<Bytes: Sequence<UInt8>>(of payload: Bytes) -> [UInt8] {
        var mac = prepared.mac
        mac.update(data: Array(payload))
        return Array(mac.finalize())
    }
}

/// base64url without padding (RFC 4648 §5), decoded by hand: a strict decoder that refuses
/// padding, other alphabets and non-zero trailing bits, so one byte string has one spelling.
enum Base64URL {
    static func decode(_ text: ArraySlice<UInt8>) -> [UInt8]? {
        guard text.count % 4 != 1 else { return nil }
        var output: [UInt8] = []
        output.reserveCapacity(text.count * 3 / 4)
        var buffer: UInt32 = 0
        var bits = 0
        for character in text {
            guard let value = sextet(character) else { return nil }
            buffer = (buffer << 6) | UInt32(value)
            bits += 6
            if bits >= 8 {
                bits -= 8
                output.append(UInt8(truncatingIfNeeded: buffer >> UInt32(bits)))
            }
        }
        // The bits left over must be zero: otherwise another spelling of the same bytes.
        guard buffer & ((1 << UInt32(bits)) - 1) == 0 else { return nil }
        return output
    }

    private static func sextet(_ character: UInt8) -> UInt8? {
        switch character {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): character - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): character - UInt8(ascii: "a") + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): character - UInt8(ascii: "0") + 52
        case UInt8(ascii: "-"): 62
        case UInt8(ascii: "_"): 63
        default: nil
        }
    }
}

/// Compares secrets in time independent of where they first differ.
enum ConstantTime {
    static func equal(_ a: String, _ b: String) -> Bool {
        var a = a, b = b
        return a.withUTF8 { x in
            b.withUTF8 { y in
                var difference = UInt8(x.count == y.count ? 0 : 1)
                for index in 0..<max(x.count, y.count) {
                    difference |= (index < x.count ? x[index] : 0) ^ (index < y.count ? y[index] : 0)
                }
                return difference == 0
            }
        }
    }
}

extension Data {
    var base64URL: String {
        base64EncodedString().replacing("+", with: "-").replacing("/", with: "_").replacing("=", with: "")
    }
}
