/// CLDR plural categories.
public enum PluralCategory: String, Sendable, CaseIterable, Codable {
    case zero, one, two, few, many, other
}

/// CLDR cardinal plural rules (unicode.org/cldr, plurals.xml) for the languages alertd ships and
/// their neighbours; any other language uses English's rule.
public enum PluralRules {
    /// The category of `value` in `locale` (its language subtag decides).
    public static func category(of value: FormatArgument, locale: String) -> PluralCategory {
        category(of: value, language: language(of: locale))
    }

    /// The category of `value` in a language, its subtag already lowercased (`language(of:)`).
    static func category(of value: FormatArgument, language: String) -> PluralCategory {
        guard let operands = Operands(value) else { return .other }
        return category(operands, language: language)
    }

    /// The form a String Catalog shows for `value` among forms that include `zero` or not: as
    /// Apple's platforms do, an explicit `zero` form is the integer 0's in every language, even
    /// one whose rule has no `zero` category (English); otherwise the CLDR category.
    static func form(of value: FormatArgument, language: String, hasZero: Bool) -> PluralCategory {
        if hasZero, value == .integer(0) { return .zero }
        return category(of: value, language: language)
    }

    /// The category of a number written as text (`"1.50"` has two visible decimals).
    public static func category(ofNumber text: String, locale: String) -> PluralCategory {
        guard let operands = Operands(text) else { return .other }
        return category(operands, language: language(of: locale))
    }

    public static func language(of locale: String) -> String {
        String(locale.split(whereSeparator: { $0 == "-" || $0 == "_" }).first ?? "").lowercased()
    }

    // swiftlint:disable:next cyclomatic_complexity
    static func category(_ o: Operands, language: String) -> PluralCategory {
        let i = o.i, v = o.v, n = o.n
        let integral = v == 0
        switch language {
        case "ja", "zh", "ko", "th", "vi", "id", "ms", "my", "lo", "km":
            return .other
        case "fr":
            if i == 0 || i == 1 { return .one }
            if integral, i != 0, i % 1_000_000 == 0 { return .many }
            return .other
        case "es", "it", "pt", "ca":
            let one: Bool
            switch language {
            case "es": one = n == 1
            case "pt": one = i == 0 || i == 1
            default: one = i == 1 && integral
            }
            if one { return .one }
            if integral, i != 0, i % 1_000_000 == 0 { return .many }
            return .other
        case "ru", "uk", "be":
            guard integral else { return .other }
            if i % 10 == 1, i % 100 != 11 { return .one }
            if (2...4).contains(i % 10), !(12...14).contains(i % 100) { return .few }
            return .many
        case "pl":
            guard integral else { return .other }
            if i == 1 { return .one }
            if (2...4).contains(i % 10), !(12...14).contains(i % 100) { return .few }
            return .many
        case "cs", "sk":
            if i == 1, integral { return .one }
            if (2...4).contains(i), integral { return .few }
            return integral ? .other : .many
        case "ar":
            guard integral else { return .other }
            if i == 0 { return .zero }
            if i == 1 { return .one }
            if i == 2 { return .two }
            if (3...10).contains(i % 100) { return .few }
            if (11...99).contains(i % 100) { return .many }
            return .other
        case "he", "iw":
            if (i == 1 && integral) || (i == 0 && !integral) { return .one }
            if i == 2, integral { return .two }
            return .other
        case "fa", "hi", "bn", "gu", "kn", "mr", "zu", "am":
            return i == 0 || n == 1 ? .one : .other
        case "tr", "el", "hu", "ka", "kk", "ky", "az", "uz", "sq", "mn", "ta", "te", "ml", "ne", "no", "nb":
            return n == 1 ? .one : .other
        default:
            // English and most Germanic languages: one is exactly 1 with no visible decimals.
            return i == 1 && integral ? .one : .other
        }
    }

    /// CLDR's operands: n (absolute value), i (integer digits), v (number of visible fraction
    /// digits).
    struct Operands {
        var n: Double
        var i: Int
        var v: Int

        private init(n: Double, i: Int, v: Int) {
            (self.n, self.i, self.v) = (n, i, v)
        }

        init?(_ value: FormatArgument) {
            switch value {
            case .integer(let integer):
                // What reading its digits gives, without writing them: past Int.max (Int.min's
                // magnitude) they would not read back as an Int.
                guard let whole = Int(exactly: integer.magnitude) else { return nil }
                self.init(n: Double(integer.magnitude), i: whole, v: 0)
            case .number(let number):
                guard number.isFinite else { return nil }
                self.init(String(number.magnitude))
            case .string(let text): self.init(text)
            }
        }

        init?(_ text: String) {
            let digits = text.hasPrefix("-") ? String(text.dropFirst()) : text
            guard let value = Double(digits), value.isFinite, !digits.contains("e"), !digits.contains("E") else { return nil }
            n = value
            let parts = digits.split(separator: ".", maxSplits: 1)
            guard let whole = Int(parts.first ?? "0") else { return nil }
            i = whole
            v = parts.count == 2 ? parts[1].count : 0
        }
    }
}
