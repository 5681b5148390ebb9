import Testing

@testable import AlertSpec

@Suite("CLDR plural rules")
struct PluralRulesTests {
    @Test("golden categories", arguments: [
        ("ru", FormatArgument.integer(1), PluralCategory.one), ("ru", .integer(2), .few), ("ru", .integer(5), .many),
        ("ru", .integer(11), .many), ("ru", .integer(21), .one), ("ru", .number(1.5), .other),
        ("ru", .integer(22), .few), ("ru", .integer(112), .many),
        ("ar", .integer(0), .zero), ("ar", .integer(1), .one), ("ar", .integer(2), .two), ("ar", .integer(3), .few),
        ("ar", .integer(11), .many), ("ar", .integer(100), .other), ("ar", .integer(103), .few),
        ("fr", .integer(0), .one), ("fr", .integer(1), .one), ("fr", .integer(2), .other),
        ("fr", .integer(1_000_000), .many), ("fr", .number(1.5), .one),
        ("en", .integer(1), .one), ("en", .integer(2), .other), ("en", .integer(0), .other), ("en", .number(1.0), .other),
        ("de", .integer(1), .one), ("de", .integer(7), .other),
        ("ja", .integer(1), .other), ("zh-Hans", .integer(1), .other), ("zh-Hant", .integer(2), .other),
        ("pl", .integer(22), .few), ("pl", .integer(25), .many), ("he", .integer(2), .two),
    ] as [(String, FormatArgument, PluralCategory)])
    func golden(locale: String, value: FormatArgument, expected: PluralCategory) {
        #expect(PluralRules.category(of: value, locale: locale) == expected)
    }

    @Test("visible decimals count: 1.50 is not one in English")
    func visibleDecimals() {
        #expect(PluralRules.category(ofNumber: "1", locale: "en") == .one)
        #expect(PluralRules.category(ofNumber: "1.50", locale: "en") == .other)
    }
}

@Suite("Choosing the locale")
struct LocaleNegotiationTests {
    let available = ["en", "zh-Hans", "zh-Hant", "ja", "fr", "de", "ru", "ar"]

    private func negotiate(query: String? = nil, _ header: String?) -> String {
        LocaleNegotiation.locale(query: query, acceptLanguage: header, available: available, source: "en")
    }

    @Test("Accept-Language by q-value, with RFC 4647 lookup", arguments: [
        ("zh-Hant-TW, fr;q=0.5", "zh-Hant"), ("fr;q=0.5, de;q=0.9", "de"), ("es, fr;q=0.1", "fr"),
        ("de;q=0, fr", "fr"), ("*", "en"), ("es, *;q=0.5, fr;q=0.4", "en"), ("FR-ca", "fr"), ("", "en"),
        ("zh-CN", "zh-Hans"), ("zh-SG", "zh-Hans"), ("zh-Hans-CN", "zh-Hans"), ("zh", "zh-Hans"),
        ("zh-TW", "zh-Hant"), ("zh-HK", "zh-Hant"), ("zh-MO", "zh-Hant"), ("ar-EG", "ar"),
        ("de;q=abc, ja", "ja"), ("en-US;q=0.8, ru;q=0.9", "ru"),
    ])
    func acceptLanguage(header: String, expected: String) {
        #expect(negotiate(header) == expected)
    }

    @Test("q=0 excludes what its range matches, unless a more specific range asks for it; * is every other locale", arguments: [
        ("en;q=0, *", "ja"), ("en;q=0", "ja"), ("*;q=0", "en"), ("*;q=0, fr", "fr"), ("*, ja;q=0", "en"),
        ("fr;q=0, *;q=0.5, en;q=0.1", "ja"), ("en-GB, en;q=0", "en-GB"), ("en-AU, en;q=0, fr;q=0.5", "fr"),
        ("EN;q=0, en-gb;q=0.2", "en-GB"), ("en;q=0, ja;q=0", "fr"), ("en;q=0, ja;q=0, fr;q=0, en-GB;q=0", "en"),
    ])
    func exclusions(header: String, expected: String) {
        let chosen = LocaleNegotiation.locale(
            query: nil, acceptLanguage: header, available: ["en", "en-GB", "ja", "fr"], source: "en")
        #expect(chosen == expected)
    }

    @Test("renamed language codes are read under their current names, as Apple's platforms read them", arguments: [
        ("iw-IL", "he"), ("in", "id"), ("no", "nb"), ("no-NO", "nb"), ("ji", "yi"),
    ])
    func renamed(tag: String, expected: String) {
        let available = ["en", "he", "id", "nb", "yi"]
        #expect(LocaleNegotiation.locale(query: tag, acceptLanguage: nil, available: available, source: "en") == expected)
        #expect(LocaleNegotiation.locale(query: nil, acceptLanguage: tag, available: available, source: "en") == expected)
    }

    @Test("?locale= wins over Accept-Language")
    func queryWins() {
        #expect(negotiate(query: "ja-JP", "fr") == "ja")
        #expect(negotiate(query: "xx", "fr") == "en")
    }
}

@Suite("System words")
struct SystemWordsTests {
    @Test("the platform's words for Cancel", arguments: [
        ("de", "Abbrechen"), ("fr", "Annuler"), ("zh-Hans", "取消"), ("ja", "キャンセル"), ("en", "Cancel"),
        ("zh-TW", "取消"), ("fr-CA", "Annuler"), ("xx", "Cancel"),
    ])
    func cancel(locale: String, word: String) {
        #expect(SystemWords.word(.cancel, locale: locale) == word)
    }

    @Test("Not Now differs between Chinese scripts")
    func notNow() {
        #expect(SystemWords.word(.notNow, locale: "zh-Hans") == "以后")
        #expect(SystemWords.word(.notNow, locale: "zh-HK") == "稍後")
    }
}
