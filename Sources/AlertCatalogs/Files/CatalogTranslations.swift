import AlertSpec
import Foundation

/// The translations of a file catalog: a sibling String Catalog (`promo.xcstrings` beside
/// `promo.yaml`) keyed by the source text of the catalog's strings. Only text members are
/// translated — `title`, `message`, `label`, `text`, `description`, `placeholder` — never ids,
/// URLs or colours; `{name}` placeholders are kept and filled after translation.
struct CatalogTranslations: Sendable {
    static let textMembers: Set<String> = ["title", "message", "label", "text", "description", "placeholder"]

    /// The source language first, then every locale translated into.
    let locales: [String]
    /// Source text → locale → translated value.
    private let table: [String: [String: String]]

    /// Reads the String Catalog beside `catalog`, if there is one, reporting what is wrong with
    /// it into `problems` (entry = the source text, pointer = the locale). Nil when there is none
    /// or it cannot be used.
    static func load(besides catalog: URL, sourceLanguage: String, into problems: inout ProblemList) -> CatalogTranslations? {
        let url = catalog.deletingPathExtension().appendingPathExtension("xcstrings")
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        let strings: StringCatalog
        do {
            strings = try StringCatalog(contentsOf: url)
        } catch {
            problems.error(CatalogProblem.none, url.lastPathComponent, "invalid-string-catalog", "\(url.lastPathComponent) is not a String Catalog.")
            return nil
        }
        guard strings.sourceLanguage == sourceLanguage else {
            problems.error(
                CatalogProblem.none, url.lastPathComponent, "language-mismatch",
                "\(url.lastPathComponent) is written from \(strings.sourceLanguage), the catalog from \(sourceLanguage).")
            return nil
        }
        var table: [String: [String: String]] = [:]
        for (source, entry) in strings.strings {
            let expected = Set(SpecTemplate.placeholders(in: source))
            for (locale, localization) in entry.localizations ?? [:] where localization.isTranslated {
                guard let value = localization.stringUnit?.value ?? localization.variations?.plural?["other"]?.stringUnit.value
                else { continue }
                let found = Set(SpecTemplate.placeholders(in: value))
                if found != expected {
                    problems.error(
                        source, locale, "placeholder-mismatch",
                        "\(url.lastPathComponent): the \(locale) translation uses \(Self.describe(found)) where the source uses \(Self.describe(expected)).")
                    continue
                }
                table[source, default: [:]][locale] = value
            }
        }
        return CatalogTranslations(locales: strings.locales, table: table)
    }

    /// `tree` in `locale`: its text members translated where a translation exists; with
    /// `systemButtons`, the standard OK and Cancel buttons in the platform's words.
    func localize(_ tree: JSONTree, locale: String, systemButtons: Bool) -> JSONTree {
        Self.localize(tree, locale: locale, systemButtons: systemButtons) { table[$0]?[locale] }
    }

    /// `tree` in `locale` with `translate` for text members and, with `systemButtons`, the
    /// platform's words for the buttons with the ids `ok` and `cancel`.
    static func localize(
        _ tree: JSONTree, locale: String, systemButtons: Bool, translate: (String) -> String? = { _ in nil }
    ) -> JSONTree {
        tree.mapObjects { members in
            var members = members
            for key in textMembers {
                if let text = members[key]?.string, let translated = translate(text) { members[key] = .string(translated) }
            }
            if systemButtons, members["label"] != nil, let id = members["id"]?.string,
                let word = ["ok": SystemText.ok, "cancel": .cancel][id]
            {
                members["label"] = .string(SystemWords.word(word, locale: locale))
            }
            return members
        }
    }

    private static func describe(_ names: Set<String>) -> String {
        names.isEmpty ? "no placeholders" : names.sorted().map { "{\($0)}" }.joined(separator: ", ")
    }
}
