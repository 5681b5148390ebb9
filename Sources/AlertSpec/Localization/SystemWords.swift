/// The platform's own words for its standard buttons (OK, Cancel, Not Now, Done, Close) in every
/// language the platform ships: clients show them the way the system itself writes them, also
/// in a language the catalog has no translation for. The words are in `SystemWords+Table.swift`.
public enum SystemWords {
    /// Every locale the table covers, and the regions that use another's words, sorted once.
    public static let locales: [String] = (Array(table.keys) + Array(regions.keys)).sorted()

    /// Regional locales whose system words are another entry's: Spanish in the Americas is
    /// Latin American Spanish (`es-419`), as iOS has it.
    static let regions: [String: String] = Dictionary(
        uniqueKeysWithValues: ["AR", "BO", "CL", "CO", "CR", "CU", "DO", "EC", "GT", "HN", "MX", "NI", "PA", "PE", "PR", "PY", "SV", "US", "UY", "VE"]
            .map { ("es-\($0)", "es-419") })

    /// The word in `locale`: the locale's own, else the closest listed (`zh-TW` → zh-Hant,
    /// `es-MX` → es-419), else English. A pseudo-locale's is the English word transformed, as
    /// Android makes its pseudo-locales from English.
    public static func word(_ text: SystemText, locale: String) -> String {
        if let word = table[locale]?[text] { return word }
        if let pseudo = PseudoLocale(tag: locale) { return pseudo.transform(word(text, locale: "en")) }
        var match = LocaleMatch.lookup(LocaleNegotiation.canonical(locale), in: locales) ?? "en"
        match = regions[match] ?? match
        return table[match]?[text] ?? text.text.defaultValue
    }
}
