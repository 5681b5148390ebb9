import Testing

@testable import AlertServer
@testable import HTTPTestSupport
@testable import AlertdTestSupport

/// What the auth layer reads from a request before any token is checked.
@Suite("Access: the bearer token and the session id")
struct AccessParsingTests {
    @Test(
        "the token of Bearer, the scheme in any case, blanks around the token left out",
        arguments: [
            ("Bearer abc", "abc"), ("bearer abc", "abc"), ("BEARER x.y-z", "x.y-z"),
            ("Bearer \t abc \t", "abc"), ("Bearer   ", ""), ("Bearer é", "é"), ("Bearer a b", "a b"),
        ])
    func bearer(header: String, token: String) {
        #expect(Access.bearerToken(in: header) == token)
    }

    @Test("no token without the Bearer scheme", arguments: ["Basic abc", "Bearer", "Bearer\tabc", "Bearerabc", "", "Bear abc"])
    func notBearer(header: String) {
        #expect(Access.bearerToken(in: header) == nil)
    }

    @Test("session ids are 1 to 128 ASCII letters, digits, '.', '_', '-' and ':'")
    func sessionIDs() {
        for id in ["a", "Z9", "user:42.session_a-b", String(repeating: "x", count: 128)] {
            #expect(SessionTokens.isSessionID(id), "\(id)")
        }
        for id in ["", String(repeating: "x", count: 129), "a b", "é", "a/b", "\r\n", "٣", "a\u{301}", "ａ"] {
            #expect(!SessionTokens.isSessionID(id), "\(id)")
        }
    }
}
