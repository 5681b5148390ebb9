import Foundation
import Testing

@testable import AlertSpec

/// One key in four locales with different plural rules and number symbols, and a system word.
private let catalogJSON = ##"""
    {"sourceLanguage": "en", "strings": {
      "n": {"localizations": {
        "en": {"variations": {"plural": {
          "one": {"stringUnit": {"state": "translated", "value": "%'lld item"}},
          "other": {"stringUnit": {"state": "translated", "value": "%'lld items"}}}}},
        "fr": {"variations": {"plural": {
          "one": {"stringUnit": {"state": "translated", "value": "%'lld élément"}},
          "other": {"stringUnit": {"state": "translated", "value": "%'lld éléments"}}}}},
        "ru": {"variations": {"plural": {
          "one": {"stringUnit": {"state": "translated", "value": "%'lld элемент"}},
          "few": {"stringUnit": {"state": "translated", "value": "%'lld элемента"}},
          "many": {"stringUnit": {"state": "translated", "value": "%'lld элементов"}},
          "other": {"stringUnit": {"state": "translated", "value": "%'lld элемента"}}}}},
        "zh-Hans": {"stringUnit": {"state": "translated", "value": "%'lld 项"}}}}
    }}
    """##

@Suite("Localizer tables: each locale's rules and words worked out once")
struct LocaleTableTests {
    let localizer: StringCatalogLocalizer

    init() throws {
        localizer = try StringCatalogLocalizer(JSONDecoder().decode(StringCatalog.self, from: Data(catalogJSON.utf8)))
    }

    func items(_ count: Int, _ locale: String) -> String {
        localizer.string(LocalizedText("n", default: "%lld things", .integer(count)), locale: locale)
    }

    @Test("the same key renders with each locale's plural rule and digit grouping, in any order of calls")
    func perLocale() {
        for _ in 0..<2 {
            #expect(items(1, "en") == "1 item")
            #expect(items(0, "fr") == "0 élément")
            #expect(items(21, "ru") == "21 элемент")
            #expect(items(1234, "ru") == "1\u{00A0}234 элемента")
            #expect(items(1_000_000, "fr") == "1\u{202F}000\u{202F}000 éléments")
            #expect(items(1234, "en") == "1,234 items")
            #expect(items(1, "zh-Hans") == "1 项")
        }
    }

    @Test("each locale has its own system words, a locale outside the catalog too")
    func systemWords() {
        #expect(localizer.string(SystemText.cancel.text, locale: "fr") == "Annuler")
        #expect(localizer.string(SystemText.ok.text, locale: "zh-Hans") == "好")
        #expect(localizer.string(SystemText.cancel.text, locale: "de-CH") == "Abbrechen")
        #expect(localizer.string(SystemText.notNow.text, locale: "xx") == "Not Now")
    }

    @Test("a locale outside the catalog gets the source text and the source's numbers, and is not kept")
    func unknownLocale() {
        #expect(items(1234, "de") == "1,234 items")
        #expect(items(1234, "fr-CA") == "1,234 items")
        #expect(!localizer.isTranslated("n", in: "de"))
        #expect(localizer.isTranslated("n", in: "ru"))
    }

    @Test("a table is built once per catalog locale, with the locale's language and symbols")
    func tables() {
        let table = StringCatalogLocalizer.LocaleTable(locale: "ru_RU")
        #expect(table.language == "ru")
        #expect(table.symbols == NumberSymbols(locale: "ru"))
        #expect(table.units.isEmpty)
    }
}
