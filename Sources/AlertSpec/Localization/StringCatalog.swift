import Foundation

/// A String Catalog (`.xcstrings`), the JSON that Xcode writes: per key, per locale, a string
/// unit or plural variations, with substitutions (`%#@name@`) that have plural variations of
/// their own.
public struct StringCatalog: Sendable, Decodable {
    /// The language the keys' source text is in, e.g. `en`.
    public var sourceLanguage: String
    /// Every key and its translations.
    public var strings: [String: Entry]

    /// One key: its translations by locale, and a note for translators.
    public struct Entry: Sendable, Decodable {
        public var localizations: [String: Localization]?
        public var comment: String?
    }

    /// One key in one locale: a plain string, plural variations, or a string with
    /// substitutions that have variations of their own.
    public struct Localization: Sendable, Decodable {
        public var stringUnit: StringUnit?
        public var variations: Variations?
        public var substitutions: [String: Substitution]?
    }

    /// A translated string and its review state.
    public struct StringUnit: Sendable, Decodable {
        /// `translated`, `needs_review`, `new`, `stale`.
        public var state: String
        public var value: String
    }

    /// Variations of a string; by CLDR plural category (`one`, `few`, `other`, …).
    public struct Variations: Sendable, Decodable {
        public var plural: [String: Variation]?
    }

    /// The string of one variation.
    public struct Variation: Sendable, Decodable {
        public var stringUnit: StringUnit
    }

    /// A `%#@name@` placeholder: the argument it depends on and its variations.
    public struct Substitution: Sendable, Decodable {
        /// 1-based position of the argument the variations depend on.
        public var argNum: Int
        /// Its format specifier without `%`, e.g. `lld`.
        public var formatSpecifier: String
        public var variations: Variations
    }

    public init(contentsOf url: URL) throws {
        self = try JSONDecoder().decode(StringCatalog.self, from: Data(contentsOf: url))
    }

    /// Every locale any key is localized in, the source language first.
    public var locales: [String] {
        var found = Set(strings.values.flatMap { $0.localizations?.keys.map { $0 } ?? [] })
        found.remove(sourceLanguage)
        return [sourceLanguage] + found.sorted()
    }
}

extension StringCatalog.Localization {
    /// Whether every string unit (plain or plural variant) is translated.
    public var isTranslated: Bool {
        let units = [stringUnit].compactMap { $0 } + (variations?.plural?.values.map(\.stringUnit) ?? [])
            + (substitutions?.values.flatMap { $0.variations.plural?.values.map(\.stringUnit) ?? [] } ?? [])
        return !units.isEmpty && units.allSatisfy { $0.state == "translated" }
    }
}
