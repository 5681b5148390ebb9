import Foundation

/// Localizes from a String Catalog: a key's translation in the locale (plural form chosen by the
/// arguments, substitutions expanded), else its source-language value, else the text's default.
/// System words come from `SystemWords`.
///
/// Building one checks every translation against the source: the same placeholders, with
/// compatible specifiers, in every locale and plural form (a plural form may leave out the
/// number it is chosen by). A mismatch throws, naming the key and the locale.
///
/// Each locale's translations are parsed into patterns when the localizer is built, with the
/// locale's plural rule, number symbols and system words: a string is then one lookup and a fill.
public struct StringCatalogLocalizer: Localizer {
    public let sourceLanguage: String
    public let locales: [String]
    /// Every locale of `locales`, with its translated keys, in the order of `locales`: a catalog
    /// has a handful, found by comparing names (a short name is compared in one step, while
    /// hashing it for a dictionary cost a render 2,500 instructions, `make bench-instructions`).
    private let tables: [LocaleTable]

    public init(contentsOf url: URL) throws {
        try self.init(try StringCatalog(contentsOf: url))
    }

    public init(_ catalog: StringCatalog) throws {
        var units: [String: [String: Unit]] = [:]
        var problems: [String] = []
        for (key, entry) in catalog.strings {
            for (locale, localization) in entry.localizations ?? [:] where localization.isTranslated {
                units[key, default: [:]][locale] = Unit(localization)
            }
            guard let source = units[key]?[catalog.sourceLanguage] else { continue }
            let expected = source.signature(of: source.main)
            for (locale, unit) in (units[key] ?? [:]).sorted(by: { $0.key < $1.key }) {
                for (form, pattern) in unit.forms {
                    let found = unit.signature(of: pattern)
                    let missing = expected.filter { found[$0.key] == nil }.map(\.key)
                    let mismatched = found.contains { expected[$0.key] != $0.value }
                    let allowedMissing = form == nil ? [] : [unit.selector(in: unit.main)].compactMap { $0 }
                    if mismatched || !Set(missing).isSubset(of: allowedMissing) {
                        let where_ = form.map { "\(locale) (\($0.rawValue))" } ?? locale
                        problems.append(
                            "\(key): \(where_): placeholders \(Self.describe(found)) do not match the source's \(Self.describe(expected))")
                    }
                }
            }
        }
        guard problems.isEmpty else { throw LocalizationError(problems: problems.sorted()) }
        self.sourceLanguage = catalog.sourceLanguage
        self.locales = catalog.locales
        var byLocale: [String: [String: Unit]] = [:]
        for (key, unitByLocale) in units {
            for (locale, unit) in unitByLocale { byLocale[locale, default: [:]][key] = unit }
        }
        var seen = Set<String>()
        self.tables = locales.filter { seen.insert($0).inserted }.map { LocaleTable(locale: $0, units: byLocale[$0] ?? [:]) }
    }

    /// A locale the catalog does not have gets a table of its own words and no translations.
    public func string(_ text: LocalizedText, locale: String) -> String {
        let table = self.table(locale) ?? LocaleTable(locale: locale)
        if text.table == .system, let word = table.systemWords[text.key] { return word }
        if let unit = table.units[text.key] { return unit.string(text.arguments, in: table) }
        if let source = self.table(sourceLanguage), let unit = source.units[text.key] { return unit.string(text.arguments, in: source) }
        return TextFormatter.format(text.defaultValue, text.arguments, locale: sourceLanguage)
    }

    /// Whether `key` has a translated value in `locale`.
    public func isTranslated(_ key: String, in locale: String) -> Bool { table(locale)?.units[key] != nil }

    private func table(_ locale: String) -> LocaleTable? {
        tables.first { $0.locale == locale }
    }

    private static func describe(_ signature: [Int: Character]) -> String {
        signature.isEmpty ? "(none)" : signature.sorted { $0.key < $1.key }.map { "%\($0.key + 1)$\($0.value)" }.joined(separator: " ")
    }

    /// One locale's translation of one key.
    struct Unit: Sendable {
        var value: String?
        var plural: [PluralCategory: String]
        var substitutions: [String: Substitution]
        /// `selector(in: main)`, worked out once: finding it parses the pattern.
        private(set) var mainSelector: Int?
        /// The patterns parsed, when there are no substitutions to expand per call.
        private(set) var parsed: ParsedForms?

        struct Substitution: Sendable {
            var argNum: Int
            var specifier: String
            var plural: [PluralCategory: String]
        }

        init(_ localization: StringCatalog.Localization) {
            value = localization.stringUnit?.value
            plural = Self.forms(localization.variations)
            substitutions = (localization.substitutions ?? [:]).mapValues {
                Substitution(argNum: $0.argNum, specifier: $0.formatSpecifier, plural: Self.forms($0.variations))
            }
            mainSelector = plural.isEmpty ? nil : selector(in: main)
            parsed = substitutions.isEmpty ? ParsedForms(self) : nil
        }

        private static func forms(_ variations: StringCatalog.Variations?) -> [PluralCategory: String] {
            var forms: [PluralCategory: String] = [:]
            for (name, variation) in variations?.plural ?? [:] {
                if let category = PluralCategory(rawValue: name) { forms[category] = variation.stringUnit.value }
            }
            return forms
        }

        /// The pattern the others are compared with: the `other` plural form, or the value.
        var main: String { plural[.other] ?? value ?? plural.values.first ?? "" }

        /// Every pattern, with its plural form (nil for the plain value).
        var forms: [(PluralCategory?, String)] {
            plural.isEmpty ? [(nil, value ?? "")] : plural.map { ($0.key, $0.value) }
        }

        /// The argument position plural forms are chosen by: the first numeric placeholder.
        func selector(in pattern: String) -> Int? {
            TextFormatter.placeholders(in: expand(pattern, arguments: nil, locale: "en"))
                .first { "difu".contains($0.conversion) }?.position
        }

        /// The pattern for these arguments: plural form chosen, substitutions expanded.
        func pattern(for arguments: [FormatArgument], locale: String) -> String {
            var pattern = value ?? main
            if let position = mainSelector, position < arguments.count {
                pattern = plural[PluralRules.category(of: arguments[position], locale: locale)] ?? main
            }
            return expand(pattern, arguments: arguments, locale: locale)
        }

        /// Replaces each `%#@name@` with the form of its substitution that fits its argument
        /// (the `other` form when there are no arguments), `%arg` becoming a positional placeholder.
        func expand(_ pattern: String, arguments: [FormatArgument]?, locale: String) -> String {
            guard !substitutions.isEmpty, pattern.contains("%#@") else { return pattern }
            var result = pattern
            for (name, substitution) in substitutions {
                let token = "%#@\(name)@"
                guard result.contains(token) else { continue }
                var category = PluralCategory.other
                if let arguments, substitution.argNum >= 1, substitution.argNum <= arguments.count {
                    category = PluralRules.category(of: arguments[substitution.argNum - 1], locale: locale)
                }
                let form = substitution.plural[category] ?? substitution.plural[.other] ?? ""
                result = result.replacing(token, with: form.replacing("%arg", with: "%\(substitution.argNum)$\(substitution.specifier)"))
            }
            return result
        }

        /// Argument position → kind of placeholder (`@` text, `d` integer, `f` number).
        func signature(of pattern: String) -> [Int: Character] {
            var signature: [Int: Character] = [:]
            for placeholder in TextFormatter.placeholders(in: expand(pattern, arguments: nil, locale: "en")) {
                signature[placeholder.position] = "diu".contains(placeholder.conversion) ? "d" : placeholder.conversion
            }
            return signature
        }
    }
}

/// A String Catalog whose translations do not fit their source, with every problem.
public struct LocalizationError: Error, Sendable, Equatable, CustomStringConvertible {
    public var problems: [String]

    public var description: String { problems.joined(separator: "\n") }
}
