extension StringCatalogLocalizer {
    /// One locale's translations and what filling them needs, worked out once: the plural rule's
    /// language and the number symbols. Built for every locale of a catalog when the localizer
    /// is; a string then needs no String work on the locale. A class: each string looks its
    /// table up, and a struct this size was copied field by field every time.
    final class LocaleTable: Sendable {
        let locale: String
        /// The language subtag the plural rules go by (`PluralRules.language(of:)`).
        let language: String
        let symbols: NumberSymbols
        /// The keys with a value Xcode ships in this locale.
        let units: [String: Unit]

        /// - Parameter rules: the locale whose plural rules and numbers apply; `locale` itself
        ///   unless told (a pseudo-locale reads them as the source language it is made from).
        init(locale: String, units: [String: Unit] = [:], rules: String? = nil) {
            self.locale = locale
            self.units = units
            language = PluralRules.language(of: rules ?? locale)
            symbols = NumberSymbols(language: language)
        }
    }

    /// A form's patterns parsed: the plain value, the `other` form and each plural form.
    struct ParsedForms: Sendable {
        /// The value, else the main pattern: what is used when no plural form is chosen.
        let plain: FormatPattern
        let main: FormatPattern
        /// By `PluralCategory.ordinal`; nil where the form has no such plural form.
        let plural: [FormatPattern?]

        init(_ form: Form) {
            let main = FormatPattern(form.main)
            self.main = main
            plain = form.value.map(FormatPattern.init) ?? main
            var plural = [FormatPattern?](repeating: nil, count: PluralCategory.allCases.count)
            for (category, pattern) in form.plural { plural[category.ordinal] = FormatPattern(pattern) }
            self.plural = plural
        }
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
