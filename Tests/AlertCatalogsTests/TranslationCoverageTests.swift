import AlertSpec
import Foundation
import Locking
import Synchronization
import Testing

@testable import AlertCatalogs

@Suite("Built-in translations")
struct TranslationCoverageTests {
    static let requiredLocales = ["en", "zh-Hans", "zh-Hant", "ja", "fr", "de", "ru", "ar"]

    @Test("every key an alert uses is translated in every locale", arguments: ["app", "onboarding"])
    func coverage(catalog name: String) throws {
        // Given the catalog's String Catalog, recorded while every sample renders in every locale
        let strings = try CatalogRegistry.builtInStrings(name)
        let recording = KeyRecorder(strings)
        let catalog: any AlertCatalog =
            name == "app"
            ? try EnumCatalog(name: name, AppAlert.self, localizer: recording)
            : try EnumCatalog(name: name, OnboardingAlert.self, localizer: recording)
        let used = recording.keys.withLock { $0 }
        // Then the catalog offers the required locales, and each key used is translated in each
        #expect(Set(catalog.locales) == Set(Self.requiredLocales))
        #expect(used.count > 5)
        for key in used.sorted() {
            for locale in Self.requiredLocales {
                #expect(strings.isTranslated(key, in: locale), "\(name): \(key) is not translated in \(locale)")
            }
        }
    }

    @Test("the report alertd catalog strings prints has no gaps")
    func noGaps() throws {
        let reports = try CatalogStrings.builtIn()
        #expect(reports.map(\.catalog) == ["app", "onboarding"])
        #expect(reports.flatMap(\.gaps) == [])
        #expect(reports.allSatisfy { $0.undeclared.isEmpty && $0.states.count > 5 })
    }

    @Test("a gap is listed per key and locale: missing, not yet translated, or absent from the String Catalog")
    func gapsListed() {
        let report = CatalogStrings(
            catalog: "x", locales: ["en", "fr"],
            states: ["k": ["en": "translated", "fr": "needs_review"], "m": ["en": "translated"], "n": [:]],
            undeclared: ["n"])
        #expect(report.gaps == [
            "x: k: fr: needs_review", "x: m: fr: missing", "x: n: en: not in the String Catalog", "x: n: fr: not in the String Catalog",
        ])
    }

    @Test("questionExit in all eight locales, with the platform's Cancel")
    func questionExit() throws {
        let registry = try CatalogRegistry.builtIn()
        let cancels = try Self.requiredLocales.map { locale -> String in
            let spec = try registry.render(catalog: "app", type: "questionExit", parameters: [:], locale: locale)
            #expect(spec.locale == locale)
            #expect(spec.direction == (locale == "ar" ? .rtl : .ltr))
            guard case .alert(let dialog) = spec.body else { return "" }
            #expect(dialog.title?.isEmpty == false)
            return dialog.actions.first { $0.role == .cancel }?.label ?? ""
        }
        #expect(cancels == ["Cancel", "取消", "取消", "キャンセル", "Annuler", "Abbrechen", "Отменить", "إلغاء"])
    }

    @Test("newMessages takes the right plural form", arguments: [
        ("ru", 1, "1 новое"), ("ru", 2, "2 новых сообщения"), ("ru", 5, "5 новых сообщений"), ("ru", 11, "11 новых сообщений"),
        ("ru", 21, "21 новое"), ("en", 1, "1 new message."), ("en", 2, "2 new messages."),
        ("fr", 0, "0 nouveau message"), ("fr", 1, "1 nouveau message"), ("fr", 2, "2 nouveaux messages"),
        ("fr", 1_000_000, "de nouveaux messages"), ("ar", 0, "ليس لديك"), ("ar", 1, "واحدة"), ("ar", 2, "رسالتان"),
        ("ar", 3, "3 رسائل"), ("ar", 11, "11 رسالة"), ("ar", 100, "100 رسالة"), ("zh-Hans", 1, "1条新消息"),
        ("zh-Hans", 7, "7条新消息"),
    ] as [(String, Int, String)])
    func newMessagesPlural(locale: String, count: Int, fragment: String) throws {
        let spec = try CatalogRegistry.builtIn().render(
            catalog: "app", type: "newMessages", parameters: ["count": .integer(count), "sender": .string("Ana")], locale: locale)
        guard case .alert(let dialog) = spec.body else {
            Issue.record("not an alert")
            return
        }
        #expect(dialog.message?.contains(fragment) == true, "\(locale) \(count): \(dialog.message ?? "")")
    }
}
