/// Matching requested language tags against the locales a catalog has.
public enum LocaleMatch {
    /// RFC 4647 lookup: the first of `locales` equal (ignoring case, `_` read as `-`) to the
    /// requested tag or to one of its prefixes, longest first — `zh-Hant-TW` tries `zh-Hant-TW`,
    /// `zh-Hant`, `zh`. A single-letter subtag is dropped with the one before it. Nil when
    /// nothing matches.
    public static func lookup(_ requested: String, in locales: [String]) -> String? {
        var tag = String(requested.map { $0 == "_" ? "-" : $0 }).lowercased()
        while !tag.isEmpty {
            if let match = locales.first(where: { $0.lowercased() == tag }) { return match }
            guard let cut = tag.lastIndex(of: "-") else { return nil }
            tag = String(tag[..<cut])
            if tag.count >= 2, tag[tag.index(tag.endIndex, offsetBy: -2)] == "-" { tag = String(tag.dropLast(2)) }
        }
        return nil
    }
}
