import Foundation
import Testing

@testable import AlertSpec

@Suite("Validation shortcuts agree with the rules they stand for")
struct ValidationShortcutTests {
    /// Every ASCII character alone and beside a scheme, and links as catalogs write them.
    static let urls: [String] = (0..<128).flatMap { byte -> [String] in
        let c = String(UnicodeScalar(UInt8(byte)))
        return [c, c + "x:y", "a" + c + "b:c", "ab:c" + c, "https://h" + c + "/p"]
    } + [
        "https://example.com/a?b=c#d", "alertd-demo://inbox", "mailto:?subject=A%20question", "HTTP://X", "x+y.z-w:1",
        ":nothing", "1http://a", "https ://a", "a\r\nb:c", "tel:+123", "", "https:", "javascript:alert(1)",
    ]

    @Test("the byte reading of an ASCII URL's scheme matches the Character reading")
    func schemeReading() {
        for url in Self.urls {
            #expect(URLScheme.end(of: url) == URLScheme.endByCharacters(of: url), "\(url.debugDescription)")
        }
    }

    @Test("a URL that is not ASCII is read by Characters", arguments: [
        "https://例え.jp/パス", "x:\u{301}y", "é:x", "https://a\u{2028}b", "a\u{301}:b",
    ])
    func nonASCII(url: String) {
        #expect(URLScheme.end(of: url) == URLScheme.endByCharacters(of: url))
    }

    @Test("a URL checked again, from the memo of passed ones, gets the same answer as the first time")
    func checkedURLs() {
        // Twice each, plus the same with a long tail, some over the length limit
        let urls = Self.urls + Self.urls.map { $0 + String(repeating: "a", count: SpecLimits.url - 4) }
        func issues(_ url: String) -> [String] {
            var checker = SpecChecker()
            checker.url("/url", url)
            return checker.errors.map(\.code)
        }
        let first = urls.map(issues)
        #expect(first.contains([]) && first.contains(["invalid-url"]) && first.contains(["forbidden-scheme"]))
        #expect(urls.map(issues) == first)
    }

    @Test("the memo of checked URLs stays within its capacity and empties when full")
    func checkedURLsBounded() {
        let memo = CheckedURLs(capacity: 4)
        for index in 0..<10 { memo.insert("app://\(index)") }
        #expect(memo.contains("app://9") && !memo.contains("app://5"))
        #expect((0..<10).filter { memo.contains("app://\($0)") }.count <= 4)
    }

    @Test("a repeated id is found among few ids and among many, where the set takes over")
    func seenIDs() {
        for count in [3, SeenIDs.listed, SeenIDs.listed + 1, 4 * SeenIDs.listed] {
            var seen = SeenIDs()
            let ids = (0..<count).map { "id\($0)" }
            var firstTimes = 0
            for id in ids where seen.insert(id) { firstTimes += 1 }
            #expect(firstTimes == count)
            let again = [seen.insert("id0"), seen.insert("id\(count - 1)"), seen.insert("new"), seen.insert("new")]
            #expect(again == [false, false, true, false])
        }
    }
}
