extension JSON {
    /// The deepest nesting of arrays and objects `init(parsing:)` reads: a request body never
    /// needs more, and the parser recurses once a level, so no input can exhaust the stack.
    public static let maxDepth = 64

    /// Parses one JSON text strictly, as RFC 8259 has it: one value with only whitespace
    /// (space, tab, CR, LF) around it, in UTF-8 without a byte order mark.
    ///
    /// Rejected: trailing commas, comments, `NaN` and `Infinity`, leading zeros (`01`), a
    /// number too large for a finite `Double` (`1e400`), control characters in strings, a
    /// `\u` escape of a lone surrogate, invalid UTF-8, and nesting deeper than ``maxDepth``.
    ///
    /// An object that repeats a member name is rejected too. RFC 8259 leaves its meaning to
    /// each reader ("last wins" for `JSONSerialization`, "first wins" elsewhere), so a body
    /// that two parts of a system could read differently is refused rather than guessed at.
    ///
    /// `-0` is the integer 0; `-0.0` is the number -0.0.
    public init(parsing bytes: [UInt8]) throws {
        self = try bytes.withUnsafeBufferPointer { buffer in
            var parser = JSONParser(buffer)
            return try parser.document()
        }
    }

    /// Parses a JSON text as `init(parsing:)` does, with where each member of the outermost
    /// object was written (its value's byte range): how big a member was as sent. No spans
    /// when the text is not an object.
    public static func parsingMembers(_ bytes: [UInt8]) throws -> (json: JSON, spans: [String: Range<Int>]) {
        try bytes.withUnsafeBufferPointer { buffer in
            var parser = JSONParser(buffer)
            parser.memberSpans = [:]
            let json = try parser.document()
            return (json, parser.memberSpans ?? [:])
        }
    }

    /// Why a text is not JSON: the first problem, and the byte offset where it was found.
    public struct ParseError: Error, Sendable, Equatable, CustomStringConvertible {
        /// What is wrong, as a sentence.
        public let message: String
        /// The offset in the input of the byte where the problem was found.
        public let offset: Int

        public var description: String { "\(message) (at byte \(offset))" }
    }
}
