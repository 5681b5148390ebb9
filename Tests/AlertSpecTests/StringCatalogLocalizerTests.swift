import Foundation
import Testing

@testable import AlertSpec

private func catalog(_ json: String) throws -> StringCatalog {
    try JSONDecoder().decode(StringCatalog.self, from: Data(json.utf8))
}

/// A catalog with a plural key, a substitution key and a plain key, in English and Russian.
private let messages = ##"""
    {"sourceLanguage": "en", "version": "1.0", "strings": {
      "count": {"localizations": {
        "en": {"variations": {"plural": {
          "one": {"stringUnit": {"state": "translated", "value": "%lld new message"}},
          "other": {"stringUnit": {"state": "translated", "value": "%lld new messages"}}}}},
        "ru": {"variations": {"plural": {
          "one": {"stringUnit": {"state": "translated", "value": "%lld новое сообщение"}},
          "few": {"stringUnit": {"state": "translated", "value": "%lld новых сообщения"}},
          "many": {"stringUnit": {"state": "translated", "value": "%lld новых сообщений"}},
          "other": {"stringUnit": {"state": "translated", "value": "%lld нового сообщения"}}}}}}},
      "from": {"localizations": {
        "en": {"stringUnit": {"state": "translated", "value": "%#@messages@ from %@"},
               "substitutions": {"messages": {"argNum": 1, "formatSpecifier": "lld", "variations": {"plural": {
                 "one": {"stringUnit": {"state": "translated", "value": "%arg message"}},
                 "other": {"stringUnit": {"state": "translated", "value": "%arg messages"}}}}}}}}},
      "hello": {"localizations": {
        "en": {"stringUnit": {"state": "translated", "value": "Hello, %@!"}},
        "fr": {"stringUnit": {"state": "new", "value": "Bonjour, %@ !"}}}}
    }}
    """##

@Suite("Localizing from a String Catalog")
struct StringCatalogLocalizerTests {
    let localizer: StringCatalogLocalizer

    init() throws { localizer = try StringCatalogLocalizer(try catalog(messages)) }

    @Test("the plural form follows the count", arguments: [
        ("en", 1, "1 new message"), ("en", 2, "2 new messages"), ("ru", 1, "1 новое сообщение"),
        ("ru", 3, "3 новых сообщения"), ("ru", 11, "11 новых сообщений"), ("ru", 21, "21 новое сообщение"),
    ])
    func plural(locale: String, count: Int, expected: String) {
        #expect(localizer.string(LocalizedText("count", default: "%lld messages", .integer(count)), locale: locale) == expected)
    }

    @Test("substitutions take the plural form of their own argument")
    func substitution() {
        let one = LocalizedText("from", default: "", .integer(1), .string("Ana"))
        let many = LocalizedText("from", default: "", .integer(4), .string("Ana"))
        #expect(localizer.string(one, locale: "en") == "1 message from Ana")
        #expect(localizer.string(many, locale: "en") == "4 messages from Ana")
    }

    @Test("an untranslated or missing entry falls back to the source, then to the default")
    func fallback() {
        #expect(localizer.string(LocalizedText("hello", default: "Hi %@", .string("Zoé")), locale: "fr") == "Hello, Zoé!")
        #expect(localizer.string(LocalizedText("absent", default: "Hi %@", .string("Zoé")), locale: "ru") == "Hi Zoé")
    }

    @Test("its locales are every localized language, the source first")
    func locales() {
        #expect(localizer.locales == ["en", "fr", "ru"])
        #expect(!localizer.isTranslated("hello", in: "fr"))
    }

    @Test("a translation whose placeholders differ from the source's is set aside with key and locale; the source shows", arguments: [
        #"{"en": {"stringUnit": {"state": "translated", "value": "%@ has %lld"}}, "de": {"stringUnit": {"state": "translated", "value": "%lld hat %@"}}}"#,
        #"{"en": {"stringUnit": {"state": "translated", "value": "Hi %@"}}, "de": {"stringUnit": {"state": "translated", "value": "Hallo %@ %@"}}}"#,
    ])
    func placeholderMismatch(localizations: String) throws {
        let broken = StringCatalogLocalizer(try catalog(#"{"sourceLanguage": "en", "strings": {"greeting": {"localizations": "# + localizations + "}}}"))
        let problems = broken.problems(of: ["greeting"])
        #expect(problems.map(\.locale) == ["de"])
        #expect(problems.first?.description.hasPrefix("greeting: de: placeholders") == true)
        #expect(!broken.isTranslated("greeting", in: "de"))
        #expect(broken.problems(of: ["other"]).isEmpty)
    }

    @Test("a translation may leave a placeholder out, in a plural form or not, but not change one's kind")
    func omission() throws {
        let fine = StringCatalogLocalizer(try catalog(##"""
            {"sourceLanguage": "en", "strings": {"n": {"localizations": {
              "en": {"stringUnit": {"state": "translated", "value": "%@: %lld"}},
              "de": {"stringUnit": {"state": "translated", "value": "%@ hat"}},
              "ar": {"variations": {"plural": {
                "one": {"stringUnit": {"state": "translated", "value": "%@: واحدة"}},
                "other": {"stringUnit": {"state": "translated", "value": "%@: %lld"}}}}}}}}}
            """##))
        #expect(fine.problems.isEmpty)
        #expect(fine.string(LocalizedText("n", default: "", .string("Ana"), .integer(1)), locale: "ar") == "Ana: واحدة")
        #expect(fine.string(LocalizedText("n", default: "", .string("Ana"), .integer(5)), locale: "de") == "Ana hat")
        let broken = StringCatalogLocalizer(try catalog(##"""
            {"sourceLanguage": "en", "strings": {"n": {"localizations": {
              "en": {"stringUnit": {"state": "translated", "value": "%@: %lld"}},
              "ar": {"variations": {"plural": {
                "one": {"stringUnit": {"state": "translated", "value": "%lld"}},
                "other": {"stringUnit": {"state": "translated", "value": "%@: %lld"}}}}}}}}}
            """##))
        #expect(broken.problems(of: ["n"]).map(\.description).first?.hasPrefix("n: ar: (one) placeholders") == true)
    }

    @Test("numbers use the locale's separators; the ' flag groups digits")
    func numbers() {
        #expect(TextFormatter.format("%.2f", [.number(8.5)], locale: "fr") == "8,50")
        #expect(TextFormatter.format("%'lld", [.integer(1_000_000)], locale: "fr") == "1\u{202F}000\u{202F}000")
        #expect(TextFormatter.format("%'lld", [.integer(1_234_567)], locale: "de") == "1.234.567")
        #expect(TextFormatter.format("%'lld", [.integer(-1234)], locale: "en") == "-1,234")
        #expect(TextFormatter.format("%lld", [.integer(1234)], locale: "en") == "1234")
    }
}
