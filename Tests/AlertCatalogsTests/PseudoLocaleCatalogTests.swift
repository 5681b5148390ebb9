import AlertSpec
import Foundation
import Testing

@testable import AlertCatalogs

private func dialog(_ spec: AlertSpec) throws -> AlertSpec.Dialog {
    guard case .alert(let dialog) = spec.body else { throw CatalogError.unknownType(catalog: "", type: "not an alert") }
    return dialog
}

private let rlo = "\u{202E}"

@Suite("Pseudo-locales in catalogs: made from the source language, in enum and file catalogs")
struct PseudoLocaleCatalogTests {
    @Test("every built-in sample renders a valid spec in en-XA and ar-XB")
    func builtInSamples() throws {
        let registry = try CatalogRegistry.builtIn()
        for catalog in registry.catalogs {
            for entry in catalog.entries {
                for pseudo in PseudoLocale.allCases {
                    let spec = try catalog.render(type: entry.type, parameters: entry.example, in: catalog.context(for: pseudo.tag))
                    #expect(spec.locale == pseudo.tag, "\(catalog.name)/\(entry.type)")
                    #expect(spec.direction == (pseudo == .bidi ? .rtl : .ltr))
                }
            }
        }
    }

    @Test("en-XA is the English text accented and lengthened; the parameters are inserted as given")
    func enumCatalogAccented() throws {
        let registry = try CatalogRegistry.builtIn()
        let spec = try registry.render(
            catalog: "app", type: "newMessages", parameters: ["count": .integer(3), "sender": .string("Ana")], locale: "en-XA")
        let shown = try dialog(spec)
        let english = try dialog(try registry.render(
            catalog: "app", type: "newMessages", parameters: ["count": .integer(3), "sender": .string("Ana")], locale: "en"))
        let title = try #require(shown.title)
        #expect(title.hasPrefix("["))
        #expect(title.hasSuffix("]"))
        #expect(title.contains("Ana"))
        #expect(title.count > Int(Double(english.title?.count ?? 0) * 1.4))
        #expect(shown.message?.contains(" 3 ") == true)
        // The buttons' ids and actions are the English ones; only the words change.
        #expect(shown.actions.map(\.id) == english.actions.map(\.id))
        #expect(shown.actions.map(\.role) == english.actions.map(\.role))
        #expect(zip(shown.actions, english.actions).allSatisfy { $0.label != $1.label && $0.label.hasPrefix("[") })
    }

    @Test("system words are the English ones transformed, not the catalog's Arabic")
    func systemWords() throws {
        let registry = try CatalogRegistry.builtIn()
        let bidi = try dialog(try registry.render(catalog: "app", type: "questionExit", parameters: [:], locale: "ar-XB"))
        let cancel = try #require(bidi.actions.first { $0.role == .cancel })
        #expect(cancel.label == PseudoLocale.bidi.transform("Cancel"))
        let accented = try dialog(try registry.render(catalog: "app", type: "questionExit", parameters: [:], locale: "en_xa"))
        #expect(accented.actions.first { $0.role == .cancel }?.label == "[Çåñçéļ one]")
    }

    @Test("a pseudo-locale is chosen only by ?locale=, never by Accept-Language, and is not among the catalog's locales")
    func negotiation() throws {
        let catalog = try #require(try CatalogRegistry.builtIn()["app"])
        #expect(!catalog.locales.contains { PseudoLocale(tag: $0) != nil })
        #expect(catalog.locale(for: "en-XA") == "en-XA")
        #expect(catalog.locale(for: nil, acceptLanguage: "en-XA, ar-XB;q=0.5") == "en")
        #expect(catalog.locale(for: nil, acceptLanguage: "en;q=0, *") != "en-XA")
    }

    @Test("a file catalog's texts are transformed with their {name} placeholders kept, then filled as given")
    func fileCatalog() throws {
        let folder = try FixtureFolder()
        let file = try folder.write("promo.yaml", """
            sourceLanguage: en
            alerts:
              sale:
                kind: alert
                title: "Sale, {name}!"
                message: {text: "%lld items are 30%% off.", arguments: [count]}
                actions:
                  - {id: later, label: {system: notNow}, role: cancel}
                  - {id: shop, label: Shop now, role: primary, action: {type: openURL, url: "https://shop.example.com/sale"}}
            """)
        let catalog = try FileCatalog(contentsOf: file)
        let shown = try dialog(try catalog.render(type: "sale", parameters: ["name": .string("Zoe {x}"), "count": .integer(12)], locale: "en-XA"))
        #expect(shown.title == "[Ŝåļé, Zoe {x}¡ one]")
        #expect(shown.message?.hasPrefix("[12 îţéɱš åŕé 30% öƒƒ. ") == true)
        #expect(shown.actions.map(\.label) == ["[Ñöţ Ñöŵ one]", "[Ŝĥöþ ñöŵ one two]"])
        #expect(shown.actions.last?.action == .openURL(url: "https://shop.example.com/sale"))
        let rtl = try catalog.render(type: "sale", parameters: ["name": .string("Zoe"), "count": .integer(1)], locale: "ar-XB")
        #expect(rtl.direction == .rtl)
        #expect(try dialog(rtl).title?.contains(rlo) == true)
        #expect(try dialog(rtl).title?.hasSuffix(" Zoe\u{200F}\u{202E}!\u{202C}\u{200F}") == true)
    }

    @Test("with a String Catalog, the source value is transformed; an entry marked shouldTranslate false is kept")
    func fileCatalogWithStrings() throws {
        let folder = try FixtureFolder()
        let file = try folder.write("brand.yaml", """
            sourceLanguage: en
            alerts:
              hello:
                kind: alert
                title: Acme Cloud
                message: Welcome back
                actions: [{id: ok, label: {system: ok}}]
            """)
        try folder.write("brand.xcstrings", #"""
            {"sourceLanguage": "en", "version": "1.0", "strings": {
              "Acme Cloud": {"shouldTranslate": false, "localizations": {"en": {"stringUnit": {"state": "translated", "value": "Acme Cloud"}}}},
              "Welcome back": {"localizations": {
                "en": {"stringUnit": {"state": "translated", "value": "Welcome back!"}},
                "de": {"stringUnit": {"state": "translated", "value": "Willkommen zurück!"}}}}
            }}
            """#)
        let catalog = try FileCatalog(contentsOf: file)
        let shown = try dialog(try catalog.render(type: "hello", parameters: [:], locale: "en-XA"))
        #expect(shown.title == "Acme Cloud")
        #expect(shown.message == "[Ŵéļçöɱé ƀåçķ¡ one two]")
        #expect(shown.actions.first?.label == "[ÖĶ one]")
    }
}
