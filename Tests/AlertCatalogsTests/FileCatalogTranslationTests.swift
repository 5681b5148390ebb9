import AlertSpec
import Foundation
import Testing

@testable import AlertCatalogs

private let promo = """
    sourceLanguage: en
    alerts:
      sale:
        kind: alert
        title: "Sale, {name}!"
        message: Everything is 30% off.
        actions:
          - {id: later, label: Later, role: cancel}
          - {id: shop, label: Shop now, role: primary, action: {type: openURL, url: "https://shop.example.com/sale"}}
    """

private func strings(_ entries: String) -> String {
    #"{"sourceLanguage": "en", "version": "1.0", "strings": {"# + entries + "}}"
}

@Suite("File catalogs in several languages")
struct FileCatalogTranslationTests {
    let folder: FixtureFolder

    init() throws { folder = try FixtureFolder() }

    @Test("a sibling String Catalog translates the text, keyed by source text, before placeholders are filled")
    func translated() throws {
        // Given promo.yaml and promo.xcstrings with French for two of its texts
        let file = try folder.write("promo.yaml", promo)
        try folder.write("promo.xcstrings", strings(#"""
            "Sale, {name}!": {"localizations": {"fr": {"stringUnit": {"state": "translated", "value": "Soldes, {name} !"}}}},
            "Shop now": {"localizations": {"fr": {"stringUnit": {"state": "translated", "value": "J’en profite"}}}},
            "Later": {"localizations": {"fr": {"stringUnit": {"state": "new", "value": "Plus tard"}}}}
            """#))
        let catalog = try FileCatalog(contentsOf: file)
        // When it is rendered in French and in English
        #expect(catalog.locales == ["en", "fr"])
        let french = try dialog(of: try catalog.render(type: "sale", parameters: ["name": .string("{x} Zoé")], locale: "fr"))
        let english = try dialog(of: try catalog.render(type: "sale", parameters: ["name": .string("Zoé")], locale: "en"))
        // Then French has the translations, the untranslated ("new") and the missing ones stay
        // English, placeholders are filled after translation, and URLs are never translated
        #expect(french.title == "Soldes, {x} Zoé !")
        #expect(french.message == "Everything is 30% off.")
        #expect(french.actions.map(\.label) == ["Later", "J’en profite"])
        #expect(french.actions.last?.action == .openURL(url: "https://shop.example.com/sale"))
        #expect(english.title == "Sale, Zoé!")
    }

    @Test("a translation whose placeholders differ stops the catalog, naming the text and the locale")
    func placeholderMismatch() throws {
        let file = try folder.write("promo.yaml", promo)
        try folder.write("promo.xcstrings", strings(#"""
            "Sale, {name}!": {"localizations": {"de": {"stringUnit": {"state": "translated", "value": "Ausverkauf, {nom}!"}}}}
            """#))
        let error = #expect(throws: CatalogFileError.self) { try FileCatalog(contentsOf: file) }
        let problem = try #require(error?.problems.first)
        #expect(problem.entry == "Sale, {name}!")
        #expect(problem.pointer == "de")
        #expect(problem.code == "placeholder-mismatch")
    }

    @Test("a String Catalog written from another language than the catalog is refused")
    func languageMismatch() throws {
        let file = try folder.write("promo.yaml", promo)
        try folder.write("promo.xcstrings", #"{"sourceLanguage": "de", "strings": {}}"#)
        let error = #expect(throws: CatalogFileError.self) { try FileCatalog(contentsOf: file) }
        #expect(error?.problems.first?.code == "language-mismatch")
    }

    @Test("Critical Moments OK and Cancel are the platform's words in each locale")
    func criticalMomentsSystemWords() throws {
        let file = try folder.write(
            "moments.json", #"{"ask": {"actionType": "alert", "title": "Rate us?", "showCancelButton": true}}"#)
        try folder.write("moments.xcstrings", strings(#"""
            "Rate us?": {"localizations": {"de": {"stringUnit": {"state": "translated", "value": "Bewerten Sie uns?"}}}}
            """#))
        let catalog = try FileCatalog(contentsOf: file)
        let german = try dialog(of: try catalog.render(type: "ask", parameters: [:], locale: "de"))
        #expect(german.title == "Bewerten Sie uns?")
        #expect(german.actions.map(\.label) == ["OK", "Abbrechen"])
        let english = try dialog(of: try catalog.render(type: "ask", parameters: [:], locale: "en"))
        #expect(english.actions.map(\.label) == ["OK", "Cancel"])
    }

    @Test("without a String Catalog a file catalog renders in its source language only")
    func sourceOnly() throws {
        let catalog = try FileCatalog(contentsOf: try folder.write("promo.yaml", promo))
        #expect(catalog.locales == ["en"])
        #expect(catalog.locale(for: "fr") == "en")
    }
}
