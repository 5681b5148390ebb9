import Foundation

/// Localizes from a String Catalog the way an app built by Xcode does: a key's value in the
/// locale (states `translated` and `needs_review`, which Xcode ships), else its source-language
/// value, else the text's default — with the device's variation, the plural form its argument
/// chooses, substitutions expanded and format specifiers filled. System words come from
/// `SystemWords`, in the context's system locale.
///
/// Building one never fails on a translation: each translation is compared with its source
/// (the same placeholders, with compatible specifiers; a translation may leave one out) and what
/// does not fit is kept in `problems`, for the catalog to refuse the keys it uses and only note
/// the others.
///
/// Each locale's translations are parsed into patterns when the localizer is built, with the
/// locale's plural rule, number symbols and system words: a string is then one lookup and a fill.
public struct StringCatalogLocalizer: Localizer {
    public let sourceLanguage: String
    public let locales: [String]
    /// Whether any key varies by device: when none does, the device does not change a rendering.
    public let variesByDevice: Bool
    /// What is wrong with the catalog's entries, by key: unreadable entries and translations
    /// that do not fit their source.
    public let problems: [String: [TranslationProblem]]
    /// Every locale of `locales`, with its translated keys, in the order of `locales`: a catalog
    /// has a handful, found by comparing names (a short name is compared in one step, while
    /// hashing it for a dictionary cost a render 2,500 instructions, `make bench-instructions`).
    private let tables: [LocaleTable]

    public init(contentsOf url: URL) throws {
        self.init(try StringCatalog(contentsOf: url))
    }

    public init(_ catalog: StringCatalog) {
        var byLocale: [String: [String: Unit]] = [:]
        var problems: [String: [TranslationProblem]] = [:]
        for (key, reason) in catalog.unreadable {
            problems[key, default: []].append(TranslationProblem(key: key, locale: nil, reason: reason))
        }
        var variesByDevice = false
        for (key, entry) in catalog.strings {
            let localizations = (entry.localizations ?? [:]).filter {
                entry.shouldTranslate != false || $0.key == catalog.sourceLanguage
            }
            var units: [String: Unit] = [:]
            for (locale, localization) in localizations {
                let isSource = locale == catalog.sourceLanguage
                if let unit = Unit(localization, accepting: { isSource || $0.ships }) { units[locale] = unit }
            }
            let expected = units[catalog.sourceLanguage].map { $0.signature(of: $0.main) } ?? Unit.signature(of: key)
            for (locale, unit) in units.sorted(by: { $0.key < $1.key }) where locale != catalog.sourceLanguage {
                if let reason = unit.mismatch(with: expected) {
                    problems[key, default: []].append(TranslationProblem(key: key, locale: locale, reason: reason))
                    units[locale] = nil
                }
            }
            for (locale, unit) in units {
                byLocale[locale, default: [:]][key] = unit
                variesByDevice = variesByDevice || unit.variesByDevice
            }
        }
        self.sourceLanguage = catalog.sourceLanguage
        self.locales = catalog.locales
        self.variesByDevice = variesByDevice
        self.problems = problems
        var seen = Set<String>()
        let pseudo = Self.pseudoTables(of: catalog, source: byLocale[catalog.sourceLanguage] ?? [:])
        self.tables = locales.filter { seen.insert($0).inserted }.map { LocaleTable(locale: $0, units: byLocale[$0] ?? [:]) } + pseudo
    }

    /// A locale the catalog does not have gets a table of its own numbers and no translations;
    /// a pseudo-locale gets the source's texts transformed (see `PseudoLocale`).
    public func string(_ text: LocalizedText, in context: RenderContext) -> String {
        if text.table == .system, let word = SystemText(key: text.key) {
            return SystemWords.word(word, locale: context.systemLocale)
        }
        let table = self.table(context.locale) ?? LocaleTable(locale: context.locale)
        if let unit = table.units[text.key], let string = unit.string(text.arguments, device: context.device, in: table) {
            return string
        }
        if let source = self.table(sourceLanguage), let unit = source.units[text.key],
            let string = unit.string(text.arguments, device: context.device, in: source)
        {
            return string
        }
        let pattern = PseudoLocale(tag: context.locale)?.transform(text.defaultValue) ?? text.defaultValue
        return TextFormatter.format(pattern, text.arguments, locale: sourceLanguage)
    }

    /// The value of `key` for `context` as written, not formatted: what a text that takes no
    /// arguments shows. The locale's value (a pseudo-locale's: the source's transformed), else
    /// the source language's, else nil.
    public func value(_ key: String, in context: RenderContext) -> String? {
        for locale in [context.locale, sourceLanguage] {
            if let form = table(locale)?.units[key]?.form(for: context.device) { return form.value ?? form.main }
        }
        return nil
    }

    /// Whether `key` has a value Xcode would ship in `locale`.
    public func isTranslated(_ key: String, in locale: String) -> Bool { table(locale)?.units[key] != nil }

    /// The problems of the given keys, by key then locale.
    public func problems(of keys: some Sequence<String>) -> [TranslationProblem] {
        Set(keys).sorted().flatMap { problems[$0] ?? [] }
    }

    private func table(_ locale: String) -> LocaleTable? {
        tables.first { $0.locale == locale }
    }
}

/// Why one entry of a String Catalog, or one of its translations, cannot be used.
public struct TranslationProblem: Sendable, Equatable, CustomStringConvertible {
    public var key: String
    /// Nil when the whole entry is unreadable.
    public var locale: String?
    public var reason: String

    public init(key: String, locale: String?, reason: String) {
        self.key = key
        self.locale = locale
        self.reason = reason
    }

    public var description: String { [key, locale, reason].compactMap { $0 }.joined(separator: ": ") }
}

/// A String Catalog whose translations do not fit their source, with every problem.
public struct LocalizationError: Error, Sendable, Equatable, CustomStringConvertible {
    public var problems: [String]

    public init(problems: [String]) { self.problems = problems }

    public var description: String { problems.joined(separator: "\n") }
}
