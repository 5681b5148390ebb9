import Testing

@testable import AlertSpec

@Suite("Format patterns: parsed once, filled many times")
struct FormatPatternTests {
    @Test("text runs and placeholders are split once; %% joins the text around it")
    func segments() {
        let pattern = FormatPattern("100%% of %@ and %2$lld%%")
        #expect(pattern.segments == [
            .text("100% of "), .argument(position: 0, Placeholder(conversion: "@")), .text(" and "),
            .argument(position: 1, Placeholder(position: 1, conversion: "d")), .text("%"),
        ])
        #expect(pattern.format([.string("Ana"), .integer(7)], NumberSymbols(locale: "en")) == "100% of Ana and 7%")
    }

    @Test("a placeholder without a position takes the one after the previous placeholder's")
    func numbering() {
        let pattern = FormatPattern("%2$@ %@ %1$@ %@")
        #expect(pattern.placeholders.map(\.position) == [1, 2, 0, 1])
        #expect(pattern.format(["a", "b", "c"], NumberSymbols(locale: "en")) == "b c a b")
    }

    @Test("a % or a conversion that a combining mark joins stays text, as Characters read it", arguments: [
        "%@\u{301} x", "%\u{301}@ x", "\u{600}%@ x", "%1\u{301}$@ x",
    ])
    func graphemes(format: String) {
        #expect(FormatPattern(format).placeholders.isEmpty)
        #expect(TextFormatter.format(format, ["A"]) == format)
    }

    @Test("the same pattern filled in several locales writes each locale's numbers")
    func symbols() {
        let pattern = FormatPattern("%'lld / %.2f")
        let arguments: [FormatArgument] = [.integer(-1_234_567), .number(1234.5)]
        #expect(pattern.format(arguments, NumberSymbols(locale: "en")) == "-1,234,567 / 1234.50")
        #expect(pattern.format(arguments, NumberSymbols(locale: "de-AT")) == "-1.234.567 / 1234,50")
        #expect(pattern.format(arguments, NumberSymbols(locale: "fr")) == "-1\u{202F}234\u{202F}567 / 1234,50")
        #expect(pattern.format(arguments, NumberSymbols(locale: "ru")) == "-1\u{00A0}234\u{00A0}567 / 1234,50")
    }

    @Test("grouping works on any digit count, and leaves what is not a number alone", arguments: [
        ("0", "0"), ("12", "12"), ("123", "123"), ("1234", "1,234"), ("123456", "123,456"), ("-1234567.25", "-1,234,567.25"),
        ("inf", "inf"), ("-", "-"), ("", ""),
    ])
    func grouping(number: String, expected: String) {
        #expect(NumberSymbols(locale: "en").localize(number, grouping: true) == expected)
        #expect(NumberSymbols(locale: "en").localize(number, grouping: false) == number)
    }

    @Test("an integer's plural operands are what reading its digits gives", arguments: [
        0, 1, 2, 11, 21, 1_000_000, -7, Int.max, Int.min, Int.min + 1,
    ])
    func integerOperands(value: Int) {
        let direct = PluralRules.Operands(.integer(value))
        let read = PluralRules.Operands(String(value.magnitude))
        #expect(direct?.n == read?.n)
        #expect(direct?.i == read?.i)
        #expect(direct?.v == read?.v)
        #expect((direct == nil) == (value == Int.min))
    }
}
