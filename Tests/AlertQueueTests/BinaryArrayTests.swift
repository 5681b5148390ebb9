import PostgresNIO
import Testing

@testable import AlertQueuePostgres

/// `BinaryArray` writes the bytes postgres-nio's own `Array` encoding writes, for every element
/// type the store sends (the PostgreSQL contract suite then sends them to a real database).
@Suite("Array parameters written by hand, as postgres-nio writes them")
struct BinaryArrayTests {
    @Test("text[]: empty, one, several, and text that is not ASCII or has NUL-free control bytes")
    func text() {
        for values in [[], ["a"], ["ticket-1", "", "é e\u{301} 🇫🇷 \u{2028}", "\"\\/\n\t", String(repeating: "x", count: 5000)]] {
            expectSameBytes(values)
        }
    }

    @Test("bigint[], float8[] (NaN for an absent time among them) and boolean[]")
    func numbers() {
        expectSameBytes([Int64]())
        expectSameBytes([0, 1, -1, .min, .max] as [Int64])
        expectSameBytes([0, -0.0, 1.5, .nan, .infinity, -.infinity, 1_764_000_000.123, .leastNonzeroMagnitude] as [Double])
        expectSameBytes([true, false, true])
        expectSameBytes([Bool]())
    }

    @Test("the parameter's type is the array type of its element")
    func types() {
        #expect(BinaryArray<String>.psqlType == [String].psqlType)
        #expect(BinaryArray<Int64>.psqlType == [Int64].psqlType)
        #expect(BinaryArray<Double>.psqlType == [Double].psqlType)
        #expect(BinaryArray<Bool>.psqlType == [Bool].psqlType)
        #expect(BinaryArray<String>.psqlFormat == .binary)
    }

    private func expectSameBytes<Element: BinaryArrayElement & PostgresArrayEncodable & PostgresNonThrowingEncodable>(
        _ values: [Element], sourceLocation: SourceLocation = #_sourceLocation
    ) {
        var ours = ByteBuffer()
        BinaryArray(values).encode(into: &ours, context: .default)
        var theirs = ByteBuffer()
        values.encode(into: &theirs, context: .default)
        #expect(ours == theirs, "\(values.prefix(3))", sourceLocation: sourceLocation)
    }
}
