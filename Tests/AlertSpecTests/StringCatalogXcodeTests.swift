import Foundation
import Testing

@testable import AlertSpec

/// `Fixtures/Features.xcstrings`, written as Xcode writes String Catalogs: every feature an app
/// built by Xcode shows, and what an iPhone (or iPad, Mac, Watch) would show for it.
@Suite("String Catalogs with Xcode's runtime semantics")
struct StringCatalogXcodeTests {
    let strings: StringCatalogLocalizer

    init() throws {
        let url = try #require(Bundle.module.url(forResource: "Fixtures/Features", withExtension: "xcstrings"))
        strings = try StringCatalogLocalizer(contentsOf: url)
    }

    func show(_ key: String, _ locale: String, _ device: Device = .other, _ arguments: FormatArgument..., default value: String? = nil) -> String {
        strings.string(LocalizedText(key, default: value ?? key, arguments: arguments), in: RenderContext(locale: locale, device: device))
    }

    @Test("the catalog reads whole: no entry is refused, and its locales are every language used")
    func reads() {
        #expect(strings.problems.isEmpty, "\(strings.problems)")
        #expect(strings.locales == ["en", "de", "fr", "ru"])
        #expect(strings.variesByDevice)
    }

    @Test("substitutions without argNum take their place among the placeholders; with argNum or %n$ they take theirs", arguments: [
        ("en", 1, 3, "1 post from 3 people"), ("en", 5, 1, "5 posts from 1 person"),
        ("fr", 1, 2, "De 2 personnes : 1 message"), ("fr", 3, 1, "De 1 personne : 3 messages"),
    ])
    func substitutions(locale: String, posts: Int, people: Int, expected: String) {
        #expect(show("%lld posts from %lld people", locale, .other, .integer(posts), .integer(people)) == expected)
    }

    @Test("device variations nest plural variations; a device without its own takes other", arguments: [
        ("en", Device.iphone, 1, "1 photo"), ("en", .iphone, 4, "4 photos"), ("en", .other, 1, "1 photo selected"),
        ("en", .ipad, 2, "2 photos selected"), ("ru", .other, 1, "Выбрана 1 фотография"), ("ru", .other, 3, "Выбрано 3 фотографии"),
        ("ru", .other, 5, "Выбрано 5 фотографий"), ("ru", .iphone, 21, "21 фото"),
    ])
    func devicesAndPlurals(locale: String, device: Device, count: Int, expected: String) {
        #expect(show("%lld photos selected", locale, device, .integer(count)) == expected)
    }

    @Test("each device sees its own words, in the locale or else in the source language", arguments: [
        ("en", Device.iphone, "Tap to open"), ("en", .ipad, "Tap to open beside your work"), ("en", .mac, "Click to open"),
        ("en", .applewatch, "Tap"), ("de", .mac, "Zum Öffnen klicken"), ("de", .iphone, "Zum Öffnen tippen"),
        ("fr", .ipad, "Tap to open beside your work"),
    ])
    func devices(locale: String, device: Device, expected: String) {
        #expect(show("Tap to open", locale, device) == expected)
    }

    @Test("needs_review ships; new falls back to the source; without any value the key or the default shows")
    func states() {
        #expect(show("Open in app", "fr") == "Ouvrir dans l’app")
        #expect(show("Open in app", "de") == "Open in app")
        #expect(show("Continue", "fr") == "Continue")
        #expect(show("welcome.title", "fr", default: "Welcome!") == "Bienvenue !")
        #expect(show("welcome.title", "de", default: "Welcome!") == "Welcome!")
        #expect(show("alertd", "de") == "alertd")
    }

    @Test("typed and positional specifiers are filled with the locale's numbers")
    func specifiers() {
        #expect(show("%@ paid %.2f", "en", .other, .string("Ana"), .number(12.5)) == "Ana paid €12.50")
        #expect(show("%@ paid %.2f", "de", .other, .string("Ana"), .number(12.5)) == "12,50 € bezahlt von Ana")
    }

    @Test("a translation that drops an App Intents placeholder is used as written")
    func appIntents() {
        #expect(show("${toggle} Emoji Search ${state}", "de") == "Emoji-Suche ${state}")
    }

    @Test("an explicit zero form is the integer 0's in any language, in a plural and in a substitution", arguments: [
        (0, "No messages, nothing from anyone"), (1, "1 message, 1 from you"), (2, "2 messages, 2 from you"),
    ])
    func zero(count: Int, expected: String) throws {
        let json = ##"""
            {"sourceLanguage": "en", "strings": {"n": {"localizations": {"en": {
              "variations": {"plural": {
                "zero": {"stringUnit": {"state": "translated", "value": "No messages, %#@from@"}},
                "one": {"stringUnit": {"state": "translated", "value": "%lld message, %#@from@"}},
                "other": {"stringUnit": {"state": "translated", "value": "%lld messages, %#@from@"}}}},
              "substitutions": {"from": {"argNum": 1, "formatSpecifier": "lld", "variations": {"plural": {
                "zero": {"stringUnit": {"state": "translated", "value": "nothing from anyone"}},
                "other": {"stringUnit": {"state": "translated", "value": "%arg from you"}}}}}}}}}}}
            """##
        let localizer = StringCatalogLocalizer(try JSONDecoder().decode(StringCatalog.self, from: Data(json.utf8)))
        #expect(localizer.string(LocalizedText("n", default: "", .integer(count)), locale: "en") == expected)
        // French reads 0 as `one` by CLDR; the explicit zero form still wins.
        #expect(localizer.string(LocalizedText("n", default: "", .integer(0)), locale: "fr") == "No messages, nothing from anyone")
    }

    @Test("an entry Xcode could not have written is set aside with its key and reason; the others are used")
    func unreadableEntry() throws {
        let json = #"""
            {"sourceLanguage": "en", "strings": {
              "broken": {"localizations": {"fr": {"stringUnit": {"state": "translated"}}}},
              "fine": {"localizations": {"fr": {"stringUnit": {"state": "translated", "value": "bien"}}}}}}
            """#
        let localizer = StringCatalogLocalizer(try JSONDecoder().decode(StringCatalog.self, from: Data(json.utf8)))
        #expect(localizer.problems(of: ["broken"]).map(\.description) == ["broken: localizations.fr.stringUnit.value is missing"])
        #expect(localizer.string(LocalizedText("fine", default: "fine"), locale: "fr") == "bien")
    }
}
