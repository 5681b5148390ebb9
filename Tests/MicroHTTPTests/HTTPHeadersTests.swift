import Testing

@testable import MicroHTTP

@Suite("Header lookup")
struct HTTPHeadersTests {
    @Test("A name is found in any case of its letters, the first field of that name")
    func caseOfLetters() {
        let headers: HTTPHeaders = ["Content-Type": "application/json", "Authorization": "Bearer a", "authorization": "Bearer b"]
        #expect(headers["authorization"] == "Bearer a")
        #expect(headers["AUTHORIZATION"] == "Bearer a")
        #expect(headers["content-TYPE"] == "application/json")
        #expect(headers["Accept-Language"] == nil)
    }

    @Test("Only letters differ by case: other bytes one bit apart, other lengths and other names do not match")
    func onlyLetters() {
        #expect(HTTPHeaders.same("x-a", "X-A"))
        #expect(!HTTPHeaders.same("a-b", "a\rb"))  // '-' is '\r' with the case bit
        #expect(!HTTPHeaders.same("a[", "a{"))  // so is '{' to '['
        #expect(!HTTPHeaders.same("@", "`"))
        #expect(!HTTPHeaders.same("host", "hosts"))
        #expect(!HTTPHeaders.same("host", "post"))
        #expect(HTTPHeaders.same("", ""))
        #expect(HTTPHeaders.same("übung", "übung"))
        #expect(!HTTPHeaders.same("Übung", "übung"))
    }
}
