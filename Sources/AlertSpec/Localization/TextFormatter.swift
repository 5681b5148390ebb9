/// Substitutes arguments into a format string with printf-style placeholders, the subset that
/// String Catalogs use: `%@`, `%d`/`%i`/`%ld`/`%lld`/`%u`/`%lu`/`%llu`, `%f`/`%.Nf`, `%%`,
/// and positional forms (`%2$@`). Substituted text is never scanned again.
///
/// Numbers use the locale's decimal separator (`3,5` in French); the `'` flag (`%'lld`) asks for
/// the locale's digit grouping too (`1 000 000` in French, `1.000.000` in German).
public enum TextFormatter {
    public static func format(_ format: String, _ arguments: [FormatArgument], locale: String = "en") -> String {
        guard format.utf8.contains(UInt8(ascii: "%")) else { return format }
        return FormatPattern(format).format(arguments, NumberSymbols(locale: locale))
    }

    /// The placeholders of a format string, in order: their argument positions and conversions.
    public static func placeholders(in format: String) -> [(position: Int, conversion: Character)] {
        FormatPattern(format).placeholders
    }

    /// One argument as `placeholder` writes it.
    static func render(_ argument: FormatArgument, _ placeholder: Placeholder, _ symbols: NumberSymbols) -> String {
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
}
