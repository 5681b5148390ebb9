import Testing

@testable import AlertServer
@testable import HTTPTestSupport
@testable import AlertdTestSupport

@Suite("Which Content-Type values name JSON")
struct JSONContentTypeTests {
    @Test("application/json and application/…+json, in any case, with parameters and blanks")
    func json() {
        for value in [
            "application/json", "APPLICATION/JSON", "Application/Json; charset=utf-8", " \tapplication/json \t; x=y",
            "application/problem+json", "application/vnd.api+JSON", "application/json;", "application/a+json",
        ] {
            #expect(JSONContentType.isJSON(value), "\(value)")
        }
    }

    @Test("Other types, near misses, and bytes outside ASCII letters are not JSON")
    func notJSON() {
        for value in [
            "", ";", "text/plain", "application/x-www-form-urlencoded", "application/jsonx", "application/+json",
            "application/ json", "application/json x", "applicationXjson", "text/json", "application/jso",
            "application/json\u{0}", "application/jsoN\u{301}", "appl\u{C9}cation/json", "application/\u{0A}son",
            "application/j\u{13}on",  // a control byte where the s would be
        ] {
            #expect(!JSONContentType.isJSON(value), "\(value)")
        }
    }
}
