/// Substitutes arguments into a format string with printf-style placeholders, the subset that
/// String Catalogs use: `%@`, `%d`/`%i`/`%ld`/`%lld`/`%u`/`%lu`/`%llu`, `%f`/`%.Nf`, `%%`,
/// and positional forms (`%2$@`). Substituted text is never scanned again.
///
/// Numbers use the locale's decimal separator (`3,5` in French); the `'` flag (`%'lld`) asks for
/// the locale's digit grouping too (`1 000 000` in French, `1.000.000` in German).
public enum TextFormatter {
    public static func format(_ format: String, _ arguments: [FormatArgument], locale: String = "en") -> String {
        guard format.utf8.contains(UInt8(ascii: "%")) else { return format }
        var output = ""
        var next = 0
        var index = format.startIndex
        var text = index  // the start of the text not yet copied: copied in runs, not by Character
        let symbols = NumberSymbols(locale: locale)
        while index < format.endIndex {
            guard format[index] == "%", let placeholder = Placeholder.parse(format, at: format.index(after: index)) else {
                index = format.index(after: index)
                continue
            }
            output += format[text..<index]
            index = placeholder.end
            text = index
            if placeholder.conversion == "%" {
                output.append("%")
                continue
            }
            let position = placeholder.position ?? next
            next = position + 1
            output += position < arguments.count ? render(arguments[position], placeholder, symbols) : ""
        }
        output += format[text...]
        return output
    }

    /// The placeholders of a format string, in order: their argument positions and conversions.
    public static func placeholders(in format: String) -> [(position: Int, conversion: Character)] {
        var result: [(Int, Character)] = []
        var next = 0
        var index = format.startIndex
        while index < format.endIndex {
            if format[index] == "%", let placeholder = Placeholder.parse(format, at: format.index(after: index)) {
                index = placeholder.end
                if placeholder.conversion == "%" { continue }
                let position = placeholder.position ?? next
                next = position + 1
                result.append((position, placeholder.conversion))
            } else {
                index = format.index(after: index)
            }
        }
        return result
    }

    private static func render(_ argument: FormatArgument, _ placeholder: Placeholder, _ symbols: NumberSymbols) -> String {
        let grouped = placeholder.grouping
        switch (argument, placeholder.conversion) {
        case (.number(let value), "f"):
            return symbols.localize(fixed(value, digits: placeholder.precision ?? 6), grouping: grouped)
        case (.integer(let value), "f"):
            return symbols.localize(fixed(Double(value), digits: placeholder.precision ?? 6), grouping: grouped)
        case (.number(let value), "d"), (.number(let value), "i"), (.number(let value), "u"):
            return symbols.localize(fixed(value.rounded(.towardZero), digits: 0), grouping: grouped)
        case (.integer(let value), "d"), (.integer(let value), "i"), (.integer(let value), "u"):
            return symbols.localize(String(value), grouping: grouped)
        case (.string(let value), _): return value
        case (.integer(let value), _): return String(value)
        case (.number(let value), _):
            return value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
        }
    }

    /// `value` with `digits` fraction digits, as `%.Nf` writes it, for any finite value: the
    /// fraction digits an Int64 can carry with the whole part are computed, the rest are zeros
    /// (a Double has no more), and a whole part past Int64 comes from Swift's shortest form.
    private static func fixed(_ value: Double, digits: Int) -> String {
        guard value.isFinite else { return String(value) }
        func power(_ exponent: Int) -> Double { (0..<exponent).reduce(1.0) { result, _ in result * 10 } }
        var kept = min(digits, 15)
        while kept > 0, (abs(value) * power(kept)).rounded() >= 0x1p63 { kept -= 1 }
        let scale = power(kept)
        let scaled = (abs(value) * scale).rounded()
        let zeros = String(repeating: "0", count: digits - kept)
        let sign = value < 0 && scaled != 0 ? "-" : ""
        guard scaled < 0x1p63 else {
            return sign + wholeDigits(abs(value).rounded()) + (digits > 0 ? "." + zeros : "")
        }
        let whole = Int64(scaled / scale)
        var text = sign + String(whole)
        if digits > 0 {
            let fraction = kept > 0 ? String(max(0, Int64(scaled - Double(whole) * scale))) : ""
            text += "." + String(repeating: "0", count: max(0, kept - fraction.count)) + fraction + zeros
        }
        return text
    }

    /// The decimal digits of a whole number past Int64, from its shortest form: `1e+19` →
    /// `10000000000000000000`, `1.2345678901234568e+20` → `123456789012345680000`.
    private static func wholeDigits(_ value: Double) -> String {
        let parts = value.description.split(separator: "e")
        guard parts.count == 2, let exponent = Int(parts[1]) else { return value.description }
        let mantissa = parts[0].split(separator: ".", maxSplits: 1)
        let fraction = mantissa.count == 2 ? mantissa[1] : ""
        return String(mantissa[0]) + fraction + String(repeating: "0", count: max(0, exponent - fraction.count))
    }

    private struct Placeholder {
        var position: Int?
        var grouping = false
        var precision: Int?
        var conversion: Character
        var end: String.Index

        /// Parses `[n$]['][.p][l|ll]c` after a `%`.
        static func parse(_ text: String, at start: String.Index) -> Placeholder? {
            var index = start
            func peek() -> Character? { index < text.endIndex ? text[index] : nil }
            func digits() -> Int? {
                var value: Int?
                while let character = peek(), let digit = character.wholeNumberValue, character.isASCII {
                    value = (value ?? 0) * 10 + digit
                    if value! > 99 { return nil }
                    index = text.index(after: index)
                }
                return value
            }
            var position: Int?
            let save = index
            if let number = digits(), peek() == "$", number >= 1 {
                position = number - 1
                index = text.index(after: index)
            } else {
                index = save
            }
            var grouping = false
            if peek() == "'" {
                grouping = true
                index = text.index(after: index)
            }
            var precision: Int?
            if peek() == "." {
                index = text.index(after: index)
                precision = digits() ?? 0
            }
            while peek() == "l" { index = text.index(after: index) }
            guard let conversion = peek(), "@difu%".contains(conversion) else { return nil }
            return Placeholder(
                position: position, grouping: grouping, precision: precision, conversion: conversion, end: text.index(after: index))
        }
    }
}

/// How a locale writes numbers: decimal separator and digit grouping.
struct NumberSymbols {
    var decimal: Character
    var group: String

    init(locale: String) {
        switch PluralRules.language(of: locale) {
        case "fr": decimal = ","; group = "\u{202F}"
        case "de", "es", "it", "nl", "tr", "da", "id", "pt": decimal = ","; group = "."
        case "ru", "uk", "pl", "cs", "sk", "sv", "fi", "nb", "no", "be": decimal = ","; group = "\u{00A0}"
        default: decimal = "."; group = ","
        }
    }

    /// `1234.5` (as Swift writes it) in this locale's symbols, grouped if asked.
    func localize(_ number: String, grouping: Bool) -> String {
        var whole = Substring(number)
        var fraction: Substring?
        if let dot = number.firstIndex(of: ".") {
            whole = number[..<dot]
            fraction = number[number.index(after: dot)...]
        }
        var text = String(whole)
        if grouping {
            let sign = whole.hasPrefix("-") ? "-" : ""
            let digits = Array(whole.drop(while: { $0 == "-" }))
            var groups: [String] = []
            var end = digits.count
            while end > 0 {
                groups.insert(String(digits[max(0, end - 3)..<end]), at: 0)
                end -= 3
            }
            text = sign + groups.joined(separator: group)
        }
        if let fraction { text += String(decimal) + fraction }
        return text
    }
}
