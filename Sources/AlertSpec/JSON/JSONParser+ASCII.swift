extension JSONParser {
    /// The bytes JSON's grammar is written in.
    enum ASCII {
        static let tab = UInt8(ascii: "\t")
        static let lineFeed = UInt8(ascii: "\n")
        static let carriageReturn = UInt8(ascii: "\r")
        static let space = UInt8(ascii: " ")
        static let quote = UInt8(ascii: "\"")
        static let plus = UInt8(ascii: "+")
        static let comma = UInt8(ascii: ",")
        static let minus = UInt8(ascii: "-")
        static let dot = UInt8(ascii: ".")
        static let slash = UInt8(ascii: "/")
        static let zero = UInt8(ascii: "0")
        static let nine = UInt8(ascii: "9")
        static let colon = UInt8(ascii: ":")
        static let openBracket = UInt8(ascii: "[")
        static let backslash = UInt8(ascii: "\\")
        static let closeBracket = UInt8(ascii: "]")
        static let b = UInt8(ascii: "b")
        static let e = UInt8(ascii: "e")
        static let f = UInt8(ascii: "f")
        static let n = UInt8(ascii: "n")
        static let r = UInt8(ascii: "r")
        static let t = UInt8(ascii: "t")
        static let u = UInt8(ascii: "u")
        static let openBrace = UInt8(ascii: "{")
        static let closeBrace = UInt8(ascii: "}")

        static func isDigit(_ byte: UInt8) -> Bool { byte &- zero < 10 }

        /// The value of a hex digit, either case.
        static func hexValue(_ byte: UInt8) -> UInt32? {
            if isDigit(byte) { return UInt32(byte &- zero) }
            let lower = byte | 0x20
            guard lower >= UInt8(ascii: "a"), lower <= f else { return nil }
            return UInt32(lower - UInt8(ascii: "a") + 10)
        }
    }
}
