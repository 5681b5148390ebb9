import Foundation

/// Chooses the locale to render from what the client asked, among the locales a catalog has.
///
/// `?locale=` wins (a pseudo-locale, `en-XA` or `ar-XB`, is chosen only this way); else
/// `Accept-Language` ranges are tried by descending q-value, each by RFC 4647 lookup, as RFC 9110 §12.5.4 reads them: a locale is excluded when the most specific
/// range that matches it (RFC 4647 basic filtering, `*` matching any) has `q=0`, so
/// `en;q=0, *` never gives English and `en-GB, en;q=0` gives `en-GB` only; `*` stands for the
/// locales no other range names, the source language first. With no range left, the source
/// language, or the first locale not excluded when it is. Chinese is matched by script: `zh-CN`, `zh-SG` and `zh-Hans-CN` read as `zh-Hans`;
/// `zh-TW`, `zh-HK` and `zh-MO` as `zh-Hant`; a bare `zh` as `zh-Hans`.
public enum LocaleNegotiation {
    public static func locale(query: String?, acceptLanguage: String?, available: [String], source: String) -> String {
        if let query, !query.isEmpty {
            // A pseudo-locale is made from the source language, whatever the catalog has.
            if let pseudo = PseudoLocale(tag: query) { return pseudo.tag }
            return LocaleMatch.lookup(canonical(query), in: available) ?? source
        }
        let weighted = weightedRanges(acceptLanguage ?? "")
        let acceptable = available.filter { locale in mostSpecific(of: weighted, matching: locale)?.q != 0 }
        for range in weighted where range.q > 0 {
            if range.range == "*" {
                let unnamed = acceptable.filter { mostSpecific(of: weighted, matching: $0)?.range == "*" }
                if let match = unnamed.contains(source) ? source : unnamed.first { return match }
            } else if let match = LocaleMatch.lookup(canonical(range.range), in: acceptable) {
                return match
            }
        }
        return acceptable.contains(source) ? source : acceptable.first ?? source
    }

    /// The language ranges of an Accept-Language value, best first; ranges with `q=0` or an
    /// unreadable q-value are left out, equal q-values keep their order.
    public static func ranges(_ header: String) -> [String] {
        weightedRanges(header).filter { $0.q > 0 }.map(\.range)
    }

    /// The readable ranges of an Accept-Language value with their q-values, `q=0` included, best
    /// first; equal q-values keep their order.
    static func weightedRanges(_ header: String) -> [(range: String, q: Double)] {
        var weighted: [(range: String, q: Double, index: Int)] = []
        for (index, part) in header.split(separator: ",").enumerated() {
            let pieces = part.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            guard let range = pieces.first, !range.isEmpty, range.count <= 64,
                range.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" || $0 == "*") })
            else { continue }
            var q = 1.0
            for parameter in pieces.dropFirst() where parameter.lowercased().hasPrefix("q=") {
                guard let value = Double(parameter.dropFirst(2)), (0...1).contains(value) else { q = -1; break }
                q = value
            }
            if q >= 0 { weighted.append((range, q, index)) }
        }
        return weighted.sorted { $0.q != $1.q ? $0.q > $1.q : $0.index < $1.index }.map { ($0.range, $0.q) }
    }

    /// The range with the most subtags that matches `locale` by RFC 4647 basic filtering (equal,
    /// or a prefix ending at a `-`; `*` matches any tag, with the fewest subtags), nil if none.
    static func mostSpecific(of ranges: [(range: String, q: Double)], matching locale: String) -> (range: String, q: Double)? {
        let tag = normalized(locale)
        var best: (range: String, q: Double, subtags: Int)?
        for (range, q) in ranges {
            let subtags: Int
            if range == "*" {
                subtags = 0
            } else {
                let prefix = normalized(canonical(range))
                guard tag == prefix || tag.hasPrefix(prefix + "-") else { continue }
                subtags = prefix.split(separator: "-").count
            }
            if best.map({ subtags > $0.subtags }) ?? true { best = (range, q, subtags) }
        }
        return best.map { ($0.range, $0.q) }
    }

    private static func normalized(_ tag: String) -> String { String(tag.map { $0 == "_" ? "-" : $0 }).lowercased() }

    /// Language subtags that were renamed, as Apple's platforms still read them (`iw` is Hebrew,
    /// `no` Norwegian Bokmål).
    static let renamed = ["iw": "he", "in": "id", "ji": "yi", "no": "nb"]

    /// A tag with Chinese regions read as scripts (`zh-TW` → `zh-Hant-TW`) and renamed
    /// languages under their current names (`iw-IL` → `he-IL`); other tags unchanged.
    public static func canonical(_ tag: String) -> String {
        var parts = tag.split(whereSeparator: { $0 == "-" || $0 == "_" }).map(String.init)
        if let first = parts.first, let current = renamed[first.lowercased()] {
            parts[0] = current
            return canonical(parts.joined(separator: "-"))
        }
        guard parts.first?.lowercased() == "zh" else { return tag }
        let rest = parts.dropFirst().map { $0.lowercased() }
        if let script = rest.first, script == "hans" || script == "hant" {
            return (["zh", script == "hans" ? "Hans" : "Hant"] + rest.dropFirst()).joined(separator: "-")
        }
        let traditional: Set<String> = ["tw", "hk", "mo"]
        let script = rest.first.map { traditional.contains($0) } == true ? "Hant" : "Hans"
        return (["zh", script] + rest).joined(separator: "-")
    }
}
