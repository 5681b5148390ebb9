/// How a locale writes numbers: decimal separator and digit grouping.
struct NumberSymbols: Sendable, Equatable {
    var decimal: String
    var group: String

    init(locale: String) { self.init(language: PluralRules.language(of: locale)) }

    /// The symbols of a language subtag, lowercased (`fr`, `de`).
    init(language: String) {
        switch language {
        case "fr": decimal = ","; group = "\u{202F}"
        case "de", "es", "it", "nl", "tr", "da", "id", "pt": decimal = ","; group = "."
        case "ru", "uk", "pl", "cs", "sk", "sv", "fi", "nb", "no", "be": decimal = ","; group = "\u{00A0}"
        default: decimal = "."; group = ","
        }
    }

    /// `1234.5` (as Swift writes it) in this locale's symbols, grouped if asked. The number is
    /// ASCII (`-`, digits, one `.`), so it is read as UTF-8 bytes.
    func localize(_ number: String, grouping: Bool) -> String {
        let bytes = number.utf8
        let dot = bytes.firstIndex(of: UInt8(ascii: "."))
        let whole = bytes[..<(dot ?? bytes.endIndex)]
        var text: String
        if grouping {
            let digits = whole.drop { $0 == UInt8(ascii: "-") }
            text = whole.first == UInt8(ascii: "-") ? "-" : ""
            // The first group takes what is left over by the groups of three after it.
            var start = digits.startIndex
            var length = digits.count % 3 == 0 ? 3 : digits.count % 3
            while start < digits.endIndex {
                let end = digits.index(start, offsetBy: length)
                if start != digits.startIndex { text += group }
                text += Substring(digits[start..<end])
                start = end
                length = 3
            }
        } else {
            text = String(Substring(whole))
        }
        if let dot { text += decimal + Substring(bytes[bytes.index(after: dot)...]) }
        return text
    }
}
