extension StringCatalogLocalizer {
    /// One locale's translations and what filling them needs, worked out once: the plural rule's
    /// language, the number symbols and the system words. Built for every locale of a catalog
    /// when the localizer is; a string then needs no String work on the locale. A class: each
    /// string looks its table up, and a struct this size was copied field by field every time.
    final class LocaleTable: Sendable {
        let locale: String
        /// The language subtag the plural rules go by (`PluralRules.language(of:)`).
        let language: String
        let symbols: NumberSymbols
        /// The system table's words in this locale, by key (`system.ok`).
        let systemWords: [String: String]
        /// The translated keys.
        let units: [String: Unit]

        init(locale: String, units: [String: Unit] = [:]) {
            self.locale = locale
            self.units = units
            language = PluralRules.language(of: locale)
            symbols = NumberSymbols(language: language)
            var words: [String: String] = [:]
            for word in SystemText.allCases { words[word.text.key] = SystemWords.word(word, locale: locale) }
            systemWords = words
        }
    }

    /// A unit's patterns parsed: the plain value, the `other` form and each plural form.
    struct ParsedForms: Sendable {
        /// The value, else the main pattern: what is used when no plural form is chosen.
        let plain: FormatPattern
        let main: FormatPattern
        /// By `PluralCategory.ordinal`; nil where the unit has no such form.
        let plural: [FormatPattern?]

        init(_ unit: Unit) {
            let main = FormatPattern(unit.main)
            self.main = main
            plain = unit.value.map(FormatPattern.init) ?? main
            var plural = [FormatPattern?](repeating: nil, count: PluralCategory.allCases.count)
            for (category, pattern) in unit.plural { plural[category.ordinal] = FormatPattern(pattern) }
            self.plural = plural
        }
    }
}

extension StringCatalogLocalizer.Unit {
    /// The words for `arguments` in `table`'s locale: the plural form their selector argument
    /// chooses, filled in. Substitutions are expanded and parsed per call, as they depend on
    /// the arguments.
    func string(_ arguments: [FormatArgument], in table: StringCatalogLocalizer.LocaleTable) -> String {
        guard let parsed else {
            return TextFormatter.format(pattern(for: arguments, locale: table.locale), arguments, locale: table.locale)
        }
        var pattern = parsed.plain
        if let position = mainSelector, position < arguments.count {
            let category = PluralRules.category(of: arguments[position], language: table.language)
            pattern = parsed.plural[category.ordinal] ?? parsed.main
        }
        return pattern.format(arguments, table.symbols)
    }
}

extension PluralCategory {
    /// The position in `allCases`, for tables indexed by category.
    var ordinal: Int {
        switch self {
        case .zero: 0
        case .one: 1
        case .two: 2
        case .few: 3
        case .many: 4
        case .other: 5
        }
    }
}
