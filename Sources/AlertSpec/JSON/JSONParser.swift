/// One pass over the bytes of a JSON text, building a `JSON` value; see `JSON(parsing:)` for
/// what it accepts. Plain Swift over a buffer pointer: a string without escapes is made straight
/// from its bytes, an integer is read as its digits go by, and only a number with a fraction or
/// an exponent goes through `Double(_:)`.
struct JSONParser {
    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0
    /// Where a string with escapes is put together; kept, so only the first one allocates it.
    private var scratch: [UInt8] = []
    /// The bytes of each member value of the outermost object, as written; kept only when asked.
    var memberSpans: [String: Range<Int>]?

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    /// The text's one value, with nothing but whitespace after it.
    mutating func document() throws -> JSON {
        let document = try value(depth: 0)
        skipWhitespace()
        guard index == bytes.count else { throw failure("Only whitespace may follow the value.") }
        return document
    }

    /// The value at `index` (whitespace first), inside `depth` arrays and objects.
    private mutating func value(depth: Int) throws -> JSON {
        skipWhitespace()
        guard index < bytes.count else { throw failure("A value was expected, not the end.") }
        switch bytes[index] {
        case ASCII.openBrace: return try object(depth: depth + 1)
        case ASCII.openBracket: return try array(depth: depth + 1)
        case ASCII.quote: return .string(try string())
        case ASCII.t: return try literal("true", .bool(true))
        case ASCII.f: return try literal("false", .bool(false))
        case ASCII.n: return try literal("null", .null)
        case ASCII.minus, ASCII.zero...ASCII.nine: return try number()
        default: throw failure("A value was expected.")
        }
    }

    private mutating func object(depth: Int) throws -> JSON {
        try checkDepth(depth)
        index += 1
        var members: [String: JSON] = [:]
        skipWhitespace()
        if take(ASCII.closeBrace) { return .object(members) }
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == ASCII.quote else { throw failure("A member name (a string) was expected.") }
            let nameStart = index
            let name = try string()
            skipWhitespace()
            guard take(ASCII.colon) else { throw failure("A colon was expected after the member name.") }
            skipWhitespace()
            let valueStart = index
            guard members.updateValue(try value(depth: depth), forKey: name) == nil else {
                index = nameStart
                throw failure("An object has the member \"\(name)\" twice.")
            }
            if depth == 1, memberSpans != nil { memberSpans?[name] = valueStart..<index }
            skipWhitespace()
            if take(ASCII.comma) { continue }
            if take(ASCII.closeBrace) { return .object(members) }
            throw failure("A comma or the end of the object was expected.")
        }
    }

    private mutating func array(depth: Int) throws -> JSON {
        try checkDepth(depth)
        index += 1
        var items: [JSON] = []
        skipWhitespace()
        if take(ASCII.closeBracket) { return .array(items) }
        while true {
            items.append(try value(depth: depth))
            skipWhitespace()
            if take(ASCII.comma) { continue }
            if take(ASCII.closeBracket) { return .array(items) }
            throw failure("A comma or the end of the array was expected.")
        }
    }

    private func checkDepth(_ depth: Int) throws {
        guard depth <= JSON.maxDepth else { throw failure("Arrays and objects nest deeper than \(JSON.maxDepth) levels.") }
    }

    /// `true`, `false` or `null`, which starts at `index`.
    private mutating func literal(_ word: StaticString, _ value: JSON) throws -> JSON {
        let count = word.utf8CodeUnitCount
        guard bytes.count - index >= count else { throw failure("A value was expected.") }
        for offset in 0..<count where bytes[index + offset] != word.utf8Start[offset] {
            throw failure("A value was expected.")
        }
        index += count
        return value
    }

    /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`: an `.integer` when it has
    /// neither fraction nor exponent and fits `Int`, else a finite `.number`.
    private mutating func number() throws -> JSON {
        let start = index
        let negative = take(ASCII.minus)
        guard index < bytes.count, ASCII.isDigit(bytes[index]) else { throw failure("A digit was expected.") }
        var magnitude: UInt64 = 0
        var overflow = false
        if take(ASCII.zero) {
            guard index == bytes.count || !ASCII.isDigit(bytes[index]) else { throw failure("A number has no leading zeros.") }
        } else {
            while index < bytes.count, ASCII.isDigit(bytes[index]) {
                let (tenfold, over) = magnitude.multipliedReportingOverflow(by: 10)
                let (sum, carry) = tenfold.addingReportingOverflow(UInt64(bytes[index] &- ASCII.zero))
                magnitude = sum
                overflow = overflow || over || carry
                index += 1
            }
        }
        var integral = true
        if take(ASCII.dot) {
            integral = false
            try digits()
        }
        if index < bytes.count, bytes[index] | 0x20 == ASCII.e {
            integral = false
            index += 1
            if !take(ASCII.plus) { _ = take(ASCII.minus) }
            try digits()
        }
        if integral, !overflow {
            if negative, magnitude <= UInt64(Int.max) + 1 { return .integer(Int(truncatingIfNeeded: 0 &- magnitude)) }
            if !negative, magnitude <= UInt64(Int.max) { return .integer(Int(magnitude)) }
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        guard let value = Double(text), value.isFinite else {
            index = start
            throw failure("The number is too large for a finite double.")
        }
        return .number(value)
    }

    /// One or more digits, of a fraction or an exponent.
    private mutating func digits() throws {
        guard index < bytes.count, ASCII.isDigit(bytes[index]) else { throw failure("A digit was expected.") }
        while index < bytes.count, ASCII.isDigit(bytes[index]) { index += 1 }
    }

    /// The string whose opening quote is at `index`.
    private mutating func string() throws -> String {
        index += 1
        let start = index
        while index < bytes.count {
            let byte = bytes[index]
            if byte == ASCII.quote {
                index += 1
                return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index - 1]), as: UTF8.self)
            }
            if byte == ASCII.backslash { return try escapedString(from: start) }
            guard byte >= 0x20 else { throw failure("A control character in a string must be escaped.") }
            if byte < 0x80 { index += 1 } else { try skipUTF8Sequence() }
        }
        throw failure("A string is not closed.")
    }

    /// The rest of a string from its first escape at `index`, its text starting at `start`.
    private mutating func escapedString(from start: Int) throws -> String {
        scratch.removeAll(keepingCapacity: true)
        scratch.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<index]))
        while index < bytes.count {
            let byte = bytes[index]
            if byte == ASCII.quote {
                index += 1
                return String(decoding: scratch, as: UTF8.self)
            }
            if byte == ASCII.backslash {
                try escape()
            } else if byte < 0x20 {
                throw failure("A control character in a string must be escaped.")
            } else if byte < 0x80 {
                scratch.append(byte)
                index += 1
            } else {
                let sequenceStart = index
                try skipUTF8Sequence()
                scratch.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[sequenceStart..<index]))
            }
        }
        throw failure("A string is not closed.")
    }

    /// The escape at `index` (a backslash), appended to `scratch` as UTF-8. A `\u` escape of a
    /// high surrogate must be followed by one of a low surrogate; either alone is refused.
    private mutating func escape() throws {
        index += 1
        guard index < bytes.count else { throw failure("A string is not closed.") }
        let byte = bytes[index]
        index += 1
        switch byte {
        case ASCII.quote, ASCII.backslash, ASCII.slash: scratch.append(byte)
        case ASCII.b: scratch.append(0x08)
        case ASCII.f: scratch.append(0x0C)
        case ASCII.n: scratch.append(0x0A)
        case ASCII.r: scratch.append(0x0D)
        case ASCII.t: scratch.append(0x09)
        case ASCII.u:
            var value = try hexQuad()
            if (0xDC00...0xDFFF).contains(value) {
                throw failure("A low surrogate escape must follow a high one.")
            }
            if (0xD800...0xDBFF).contains(value) {
                guard bytes.count - index >= 2, bytes[index] == ASCII.backslash, bytes[index + 1] == ASCII.u else {
                    throw failure("A high surrogate escape must be followed by a low one.")
                }
                index += 2
                let low = try hexQuad()
                guard (0xDC00...0xDFFF).contains(low) else { throw failure("A high surrogate escape must be followed by a low one.") }
                value = 0x10000 + ((value - 0xD800) << 10) + (low - 0xDC00)
            }
            guard let scalar = Unicode.Scalar(value) else { throw failure("An escape is not a Unicode scalar.") }
            UTF8.encode(scalar) { scratch.append($0) }
        default:
            index -= 1
            throw failure("A backslash must start one of the escapes \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\u.")
        }
    }

    /// The four hex digits of a `\u` escape.
    private mutating func hexQuad() throws -> UInt32 {
        guard bytes.count - index >= 4 else { throw failure("\\u takes four hex digits.") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let digit = ASCII.hexValue(bytes[index]) else { throw failure("\\u takes four hex digits.") }
            value = value << 4 | digit
            index += 1
        }
        return value
    }

    /// Steps over the UTF-8 sequence of one scalar whose lead byte (≥ 0x80) is at `index`,
    /// checking it as the Unicode standard's table 3-7 does: no overlong forms, no surrogates,
    /// nothing above U+10FFFF.
    private mutating func skipUTF8Sequence() throws {
        let length: Int
        var second: ClosedRange<UInt8> = 0x80...0xBF
        switch bytes[index] {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; second = 0xA0...0xBF
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; second = 0x80...0x9F
        case 0xF0: length = 4; second = 0x90...0xBF
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; second = 0x80...0x8F
        default: throw failure("A string is not valid UTF-8.")
        }
        guard bytes.count - index >= length, second.contains(bytes[index + 1]) else { throw failure("A string is not valid UTF-8.") }
        for offset in 2..<length where bytes[index + offset] & 0xC0 != 0x80 {
            throw failure("A string is not valid UTF-8.")
        }
        index += length
    }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case ASCII.space, ASCII.tab, ASCII.lineFeed, ASCII.carriageReturn: index += 1
            default: return
            }
        }
    }

    /// Steps over `byte` if it is the next one.
    private mutating func take(_ byte: UInt8) -> Bool {
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    private func failure(_ message: String) -> JSON.ParseError {
        JSON.ParseError(message: message, offset: index)
    }
}
