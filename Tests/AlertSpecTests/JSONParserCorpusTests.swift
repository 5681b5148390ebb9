import Foundation
import Testing

@testable import AlertSpec

/// `JSON(parsing:)` against `JSONSerialization` on generated documents (seeded, so a failure
/// repeats): where the text is plain RFC 8259 JSON both must read the same values, and on the
/// same texts damaged a byte at a time, ours may refuse more but never accept what Foundation
/// refuses.
@Suite("Parsing JSON: agreement with JSONSerialization")
struct JSONParserCorpusTests {
    @Test("2,000 generated documents read as JSONSerialization reads them")
    func agreesOnValidDocuments() throws {
        var generator = Generator(seed: 0x6a73_6f6e)
        for round in 0..<2000 {
            let text = generator.document(depth: 4)
            let ours = try JSON(parsing: Array(text.utf8))
            let foundation = try JSONSerialization.jsonObject(with: Data(text.utf8), options: .fragmentsAllowed)
            #expect(Self.same(ours, foundation), "\(round): \(text)")
        }
    }

    @Test("damaged documents: nothing Foundation refuses is accepted, and what both accept agrees")
    func neverLaxerOnDamagedDocuments() throws {
        var generator = Generator(seed: 0x6461_6d61)
        let bytes: [UInt8] = Array(#"{}[],:"\/0123456789-+.eEtrufalsn u"#.utf8) + [0x00, 0x09, 0x0A, 0x1F, 0x7F, 0xC3, 0xED, 0xFF]
        var accepted = 0
        for round in 0..<3000 {
            var text = Array(generator.document(depth: 3).utf8)
            let at = Int(generator.next() % UInt64(text.count + 1))
            switch generator.next() % 3 {
            case 0 where at < text.count: text.remove(at: at)
            case 1 where at < text.count: text[at] = bytes[Int(generator.next() % UInt64(bytes.count))]
            default: text.insert(bytes[Int(generator.next() % UInt64(bytes.count))], at: at)
            }
            guard let ours = try? JSON(parsing: text) else { continue }
            accepted += 1
            let foundation = try? JSONSerialization.jsonObject(with: Data(text), options: .fragmentsAllowed)
            #expect(foundation.map { Self.same(ours, $0) } == true, "\(round): \(String(decoding: text, as: UTF8.self))")
        }
        #expect(accepted > 100, "the damage should leave some documents valid")
    }

    /// Whether `ours` holds what `JSONSerialization` gave, telling booleans from numbers by
    /// their `NSNumber` type (`c`).
    static func same(_ ours: JSON, _ foundation: Any) -> Bool {
        switch ours {
        case .null: return foundation is NSNull
        case .string(let value): return (foundation as? String) == value
        case .bool(let value):
            guard let number = foundation as? NSNumber, String(cString: number.objCType) == "c" else { return false }
            return number.boolValue == value
        case .integer(let value):
            guard let number = foundation as? NSNumber, String(cString: number.objCType) != "c" else { return false }
            return number.int64Value == value
        case .number(let value):
            guard let number = foundation as? NSNumber, String(cString: number.objCType) != "c" else { return false }
            // Linux's JSONSerialization rounds some numbers a few ULPs off (-4.1562039975712737e-91
            // reads 4 ULPs below what `Double(_:)` and `JSONDecoder` read), so a few ULPs agree.
            return number.doubleValue == value || abs(number.doubleValue - value) <= 8 * value.ulp
        case .array(let items):
            guard let theirs = foundation as? [Any], theirs.count == items.count else { return false }
            return zip(items, theirs).allSatisfy { same($0, $1) }
        case .object(let members):
            guard let theirs = foundation as? [String: Any], theirs.count == members.count else { return false }
            return members.allSatisfy { name, value in theirs[name].map { same(value, $0) } ?? false }
        }
    }
}

/// Random JSON texts: every kind of value, escapes of every form, non-ASCII text, numbers of
/// every shape, and whitespace between tokens. SplitMix64, so a seed gives the same texts.
private struct Generator {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    private mutating func pick<T>(_ choices: [T]) -> T { choices[Int(next() % UInt64(choices.count))] }

    private mutating func space() -> String { pick(["", "", "", " ", "\n", "\t", " \r\n  "]) }

    mutating func document(depth: Int) -> String { space() + value(depth: depth) + space() }

    private mutating func value(depth: Int) -> String {
        switch next() % (depth > 0 ? 9 : 7) {
        case 0: return pick(["null", "true", "false"])
        case 1, 2: return number()
        case 3, 4, 5, 6: return "\"" + string() + "\""
        case 7: return "[" + (0..<Int(next() % 5)).map { _ in space() + value(depth: depth - 1) + space() }.joined(separator: ",") + "]"
        default:
            var names: Set<String> = []
            let members = (0..<Int(next() % 5)).compactMap { _ -> String? in
                let name = string()
                guard names.insert(name).inserted else { return nil }
                return space() + "\"" + name + "\"" + space() + ":" + value(depth: depth - 1)
            }
            return "{" + members.joined(separator: ",") + space() + "}"
        }
    }

    private mutating func number() -> String {
        switch next() % 6 {
        case 0: return String(Int(bitPattern: UInt(next())))
        case 1: return String(Int(next() % 2000) - 1000)
        case 2: return pick(["0", "-0", "9223372036854775807", "-9223372036854775808", "0.0", "-0.0", "1e0", "1E+2", "5e-324"])
        case 3: return "\(Int(next() % 1000) - 500).\(next() % 100_000)"
        case 4: return "\(Int(next() % 20) - 10)e\(Int(next() % 600) - 300)"
        default: return String(Double(bitPattern: next() & 0x7FEF_FFFF_FFFF_FFFF) * (next() % 2 == 0 ? 1 : -1))
        }
    }

    private mutating func string() -> String {
        (0..<Int(next() % 8)).map { _ -> String in
            switch next() % 10 {
            case 0: return pick([#"\""#, #"\\"#, #"\/"#, #"\b"#, #"\f"#, #"\n"#, #"\r"#, #"\t"#])
            case 1: return pick([#"\u00e9"#, #"\u0041"#, #"\uD83D\uDE00"#, #"\u20AC"#, #"\u0001"#, #"\uFFFD"#, #"\uDBFF\uDFFF"#])
            case 2: return pick(["é", "€", "🙂", "日本", "\u{10FFFF}", "\u{7F}"])
            default: return String(UnicodeScalar(UInt8(0x20 + next() % 0x5F))).replacingOccurrences(of: "\\", with: "a")
                .replacingOccurrences(of: "\"", with: "b")
            }
        }.joined()
    }
}
