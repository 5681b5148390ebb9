/// How log lines write text that may come from a client: never a raw control character, never
/// an unbalanced quote.
enum LogEscaping {
    /// Whether a text-format value must be quoted: empty, or holding a blank, `"`, `=` or `\`.
    static func needsQuotes(_ text: String) -> Bool {
        text.isEmpty || text.utf8.contains { $0 == 0x20 || $0 == 0x22 || $0 == 0x3D || $0 == 0x5C }
    }

    /// `text` for the text format: control characters (and DEL) as `\n`, `\t`, `\r` or
    /// `\u{XX}`; inside quotes, `"` and `\` escaped too.
    static func appendText(_ text: String, quoted: Bool, to line: inout [UInt8]) {
        if quoted { line.append(UInt8(ascii: "\"")) }
        if isPlain(text) {
            line.append(contentsOf: text.utf8)
            if quoted { line.append(UInt8(ascii: "\"")) }
            return
        }
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x22 where quoted: line.append(contentsOf: #"\""#.utf8)
            case 0x5C where quoted: line.append(contentsOf: #"\\"#.utf8)
            case 0x0A: line.append(contentsOf: #"\n"#.utf8)
            case 0x0D: line.append(contentsOf: #"\r"#.utf8)
            case 0x09: line.append(contentsOf: #"\t"#.utf8)
            case 0..<0x20, 0x7F, 0x80..<0xA0, 0x2028, 0x2029:
                line.append(contentsOf: #"\u{"#.utf8)
                appendHex(scalar.value, to: &line)
                line.append(UInt8(ascii: "}"))
            default:
                if scalar.isASCII {
                    line.append(UInt8(scalar.value))
                } else {
                    line.append(contentsOf: String(scalar).utf8)
                }
            }
        }
        if quoted { line.append(UInt8(ascii: "\"")) }
    }

    /// `text` as a JSON string (RFC 8259), quotes included; U+2028 and U+2029 escaped as well,
    /// for readers that take JSON for JavaScript.
    static func appendJSONString(_ text: String, to line: inout [UInt8]) {
        line.append(UInt8(ascii: "\""))
        if isPlain(text) {
            line.append(contentsOf: text.utf8)
            line.append(UInt8(ascii: "\""))
            return
        }
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x22: line.append(contentsOf: #"\""#.utf8)
            case 0x5C: line.append(contentsOf: #"\\"#.utf8)
            case 0x0A: line.append(contentsOf: #"\n"#.utf8)
            case 0x0D: line.append(contentsOf: #"\r"#.utf8)
            case 0x09: line.append(contentsOf: #"\t"#.utf8)
            case 0..<0x20, 0x7F, 0x80..<0xA0, 0x2028, 0x2029:
                line.append(contentsOf: #"\u"#.utf8)
                let hex = String(scalar.value, radix: 16)
                line.append(contentsOf: String(repeating: "0", count: 4 - hex.count).utf8)
                line.append(contentsOf: hex.utf8)
            default:
                if scalar.isASCII {
                    line.append(UInt8(scalar.value))
                } else {
                    line.append(contentsOf: String(scalar).utf8)
                }
            }
        }
        line.append(UInt8(ascii: "\""))
    }

    /// Printable ASCII without `"` or `\`: written as it is, in one copy (the usual case: a
    /// path, an id, a number).
    private static func isPlain(_ text: String) -> Bool {
        text.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F && $0 != 0x22 && $0 != 0x5C }
    }

    private static func appendHex(_ value: UInt32, to line: inout [UInt8]) {
        line.append(contentsOf: String(value, radix: 16).utf8)
    }
}
