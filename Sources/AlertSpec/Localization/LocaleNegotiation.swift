import Foundation

/// Chooses the locale to render from what the client asked, among the locales a catalog has.
///
/// `?locale=` wins; else `Accept-Language` ranges are tried by descending q-value (`q=0`
/// excludes a range; `*` means the source language), each by RFC 4647 lookup; else the source
/// language. Chinese is matched by script: `zh-CN`, `zh-SG` and `zh-Hans-CN` read as `zh-Hans`;
/// `zh-TW`, `zh-HK` and `zh-MO` as `zh-Hant`; a bare `zh` as `zh-Hans`.
public enum LocaleNegotiation {
    public static func locale(query: String?, acceptLanguage: String?, available: [String], source: String) -> String {
        if let query, !query.isEmpty {
            return LocaleMatch.lookup(canonical(query), in: available) ?? source
        }
        for range in ranges(acceptLanguage ?? "") {
            if range == "*" { return source }
            if let match = LocaleMatch.lookup(canonical(range), in: available) { return match }
        }
        return source
    }

    /// The language ranges of an Accept-Language value, best first; ranges with `q=0` or an
    /// unreadable q-value are left out, equal q-values keep their order.
    public static func ranges(_ header: String) -> [String] {
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
            if q > 0 { weighted.append((range, q, index)) }
        }
        return weighted.sorted { $0.q != $1.q ? $0.q > $1.q : $0.index < $1.index }.map(\.range)
    }

    /// A tag with Chinese regions read as scripts (`zh-TW` → `zh-Hant-TW`); other tags unchanged.
    public static func canonical(_ tag: String) -> String {
        let parts = tag.split(whereSeparator: { $0 == "-" || $0 == "_" }).map(String.init)
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
