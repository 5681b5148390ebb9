import Testing

@testable import AlertSpec

@Suite("Text: formatting, locale lookup, direction")
struct TextTests {
    @Test("placeholders are filled in order and by position")
    func formatting() {
        #expect(TextFormatter.format("%@ has %lld new", [.string("Ana"), .integer(3)]) == "Ana has 3 new")
        #expect(TextFormatter.format("%2$@, %1$@", [.string("a"), .string("b")]) == "b, a")
        #expect(TextFormatter.format("100%% sure", []) == "100% sure")
        #expect(TextFormatter.format("%.2f km", [.number(3.14159)]) == "3.14 km")
    }

    @Test("an argument's own % signs are never read as placeholders")
    func argumentsAreInert() {
        #expect(TextFormatter.format("Hi %@", [.string("%@ %lld %%")]) == "Hi %@ %lld %%")
    }

    @Test("a placeholder without an argument renders empty rather than crashing")
    func missingArgument() {
        #expect(TextFormatter.format("a%@b%@c", [.string("1")]) == "a1bc")
    }

    @Test("placeholders are listed with their positions")
    func listing() {
        let found = TextFormatter.placeholders(in: "%@ then %2$lld and 5%%")
        #expect(found.map(\.position) == [0, 1])
        #expect(found.map(\.conversion) == ["@", "d"])
    }

    @Test("RFC 4647 lookup truncates from the end", arguments: [
        ("zh-Hant-TW", "zh-Hant"), ("ZH_hant", "zh-Hant"), ("zh-CN", "zh"), ("fr-CA", "fr"), ("de", nil),
        ("en-a-bbb-x", "en"),
    ] as [(String, String?)])
    func lookup(requested: String, expected: String?) {
        #expect(LocaleMatch.lookup(requested, in: ["en", "fr", "zh", "zh-Hant"]) == expected)
    }

    @Test("right-to-left languages", arguments: [
        ("ar", true), ("he-IL", true), ("fa", true), ("ur_PK", true), ("iw", true), ("AR-eg", true), ("Fa_IR", true),
        ("en", false), ("fr", false), ("ara", false), ("a", false), ("", false), ("en-ar", false), ("-ar", false),
        ("a@", false), ("ar ", false),
    ])
    func direction(locale: String, rtl: Bool) {
        #expect((TextDirection(locale: locale) == .rtl) == rtl)
    }
}
