import Testing

@testable import AlertSpec

/// Numbers the fuzzer (Fuzz/, target FuzzQueryParameters) crashed rendering with: a
/// `?amount=9e86` query item reaches `%.2f` as a Double past Int64, which trapped the server.
@Suite("Fuzzing regressions: number formatting")
struct NumberFormattingFuzzRegressionTests {
    @Test("a number past Int64 is written in full, with its fraction digits", arguments: [
        ("%.2f", 9e86, "9" + String(repeating: "0", count: 86) + ".00"),
        ("%.2f", -1e19, "-10000000000000000000.00"),
        ("%.0f", 1.2345678901234568e20, "123456789012345680000"),
        ("%lld", 1e19, "10000000000000000000"),
        ("%'lld", -9.3e18, "-9,300,000,000,000,000,000"),
    ])
    func pastInt64(format: String, value: Double, expected: String) {
        #expect(TextFormatter.format(format, [.number(value)]) == expected)
    }

    @Test("precision past what a Double holds ends in zeros", arguments: [
        ("%.20f", 0.5, "0.50000000000000000000"),
        ("%.15f", 9223.5, "9223.500000000000000"),
        ("%.2f", 0.999, "1.00"),
    ])
    func longPrecision(format: String, value: Double, expected: String) {
        #expect(TextFormatter.format(format, [.number(value)]) == expected)
    }
}
