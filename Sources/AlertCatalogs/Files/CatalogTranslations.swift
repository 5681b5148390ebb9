import AlertSpec
import Foundation

/// The translations of a file catalog: a sibling String Catalog (`promo.xcstrings` beside
/// `promo.yaml`) keyed by the source text of the catalog's strings, read with Xcode's runtime
/// semantics (`StringCatalogLocalizer`). Only text members are translated — `title`, `message`,
/// `label`, `text`, `description`, `placeholder` — never ids, URLs or colours; `{name}`
/// placeholders are kept and filled after translation.
struct CatalogTranslations: Sendable {
    static let textMembers: Set<String> = ["title", "message", "label", "text", "description", "placeholder"]

    let file: String
    let strings: StringCatalogLocalizer

    /// The source language first, then every locale translated into.
    var locales: [String] { strings.locales }

    /// Reads the String Catalog beside `catalog`, if there is one, reporting what makes it
    /// unusable as a whole into `problems`. Nil when there is none or it cannot be used.
    static func load(besides catalog: URL, sourceLanguage: String, into problems: inout ProblemList) -> CatalogTranslations? {
        let url = catalog.deletingPathExtension().appendingPathExtension("xcstrings")
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        let file = url.lastPathComponent
        let catalog: StringCatalog
        do {
            catalog = try StringCatalog(contentsOf: url)
        } catch {
            problems.error(CatalogProblem.none, file, "invalid-string-catalog", "\(file) is not a String Catalog: \(Self.reason(error)).")
            return nil
        }
        guard catalog.sourceLanguage == sourceLanguage else {
            problems.error(
                CatalogProblem.none, file, "language-mismatch",
                "\(file) is written from \(catalog.sourceLanguage), the catalog from \(sourceLanguage).")
            return nil
        }
        return CatalogTranslations(file: file, strings: StringCatalogLocalizer(catalog))
    }

    /// Checks the entries the catalog's alerts use: each problem of one is an error naming the
    /// file, the key and the locale. The other entries' problems are one warning, as Xcode
    /// would only warn about them.
    func check(used keys: Set<String>, into problems: inout ProblemList) {
        for problem in strings.problems(of: keys) {
            problems.error(problem.key, problem.locale ?? CatalogProblem.none, "invalid-translation", "\(file): \(problem.reason).")
        }
        for key in keys.sorted() {
            let expected = Set(SpecTemplate.placeholders(in: key))
            for locale in locales where locale != strings.sourceLanguage && strings.isTranslated(key, in: locale) {
                let value = strings.string(LocalizedText(key, default: key), in: RenderContext(locale: locale))
                let added = Set(SpecTemplate.placeholders(in: value)).subtracting(expected)
                guard !added.isEmpty else { continue }
                problems.error(
                    key, locale, "placeholder-mismatch",
                    "\(file): the \(locale) translation uses \(Self.describe(added)), which the source text does not have.")
            }
        }
        let unused = strings.problems.keys.filter { !keys.contains($0) }.sorted()
        guard !unused.isEmpty else { return }
        let shown = unused.prefix(5).flatMap { strings.problems[$0] ?? [] }.map(\.description).joined(separator: "; ")
        problems.warn(
            CatalogProblem.none, file, "unused-translation-problems",
            "\(file): \(unused.count) entries no alert uses cannot be shown as written (\(shown)\(unused.count > 5 ? "; …" : "")).")
    }

    private static func reason(_ error: any Error) -> String {
        switch error {
        case DecodingError.dataCorrupted(let context): context.underlyingError.map { "\($0.localizedDescription)" } ?? context.debugDescription
        case DecodingError.keyNotFound(let key, _): "\"\(key.stringValue)\" is missing"
        case DecodingError.typeMismatch(_, let context): "\(context.codingPath.map(\.stringValue).joined(separator: ".")) has the wrong type"
        default: "\(error.localizedDescription)"
        }
    }

    private static func describe(_ names: Set<String>) -> String {
        names.sorted().map { "{\($0)}" }.joined(separator: ", ")
    }
}
