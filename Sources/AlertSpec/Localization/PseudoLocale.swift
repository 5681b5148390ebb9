/// The pseudo-locales: a catalog's source-language text made to look translated, so that
/// truncation and mirroring show before any translation exists, as Android's `en-XA` and `ar-XB`.
///
/// ```swift
/// PseudoLocale.accented.transform("Settings")          // "[Ŝéţţîñĝš one two]"
/// PseudoLocale.accented.transform("Hi %@, {name}!")     // "[Ĥî %@, {name}¡ one]"
/// PseudoLocale.bidi.transform("Hi %@")                  // "\u{200F}\u{202E}Hi\u{202C}\u{200F} %@"
/// ```
///
/// The transform works on a pattern, before its arguments are filled: placeholders stay byte for
/// byte, so argument values never pass through it.
public enum PseudoLocale: String, Sendable, CaseIterable {
    /// Every Latin letter accented, the text bracketed and padded with words to about 40% longer.
    case accented = "en-XA"
    /// Every word forced right to left (RLM, RLO, the word, PDF, RLM); the spec reads right to left.
    case bidi = "ar-XB"

    /// The tag a spec's `locale` carries.
    public var tag: String { rawValue }

    /// Every pseudo-locale's tag.
    public static let tags: [String] = allCases.map(\.tag)

    /// The pseudo-locale `tag` names, ASCII case ignored and `_` read as `-`; nil for any other tag.
    public init?(tag: String) {
        guard tag.utf8.count == 5 else { return nil }
        let normalized = String(tag.map { $0 == "_" ? "-" : $0 }).lowercased()
        guard let found = Self.allCases.first(where: { $0.tag.lowercased() == normalized }) else { return nil }
        self = found
    }

    /// Whether a subtag after the language is a private-use region, `XA` to `XZ`: the range
    /// pseudo-locales take, never a real place, so a tag with one that is not a pseudo-locale is
    /// a mistake rather than a language to fall back from.
    ///
    /// Reads the bytes in place, making nothing: `next` asks it of every locale it is given.
    public static func hasPrivateUseRegion(_ tag: String) -> Bool {
        var index = 0, length = 0
        var first: UInt8 = 0, second: UInt8 = 0
        func isPrivateUse() -> Bool {
            // ASCII letters in lowercase; nothing else becomes one through `| 0x20`.
            index > 0 && length == 2 && first | 0x20 == UInt8(ascii: "x")
                && (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(second | 0x20)
        }
        for byte in tag.utf8 {
            if byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_") {
                if isPrivateUse() { return true }
                (index, length) = (index + 1, 0)
                continue
            }
            if length == 0 { first = byte } else if length == 1 { second = byte }
            length += 1
        }
        return isPrivateUse()
    }

    /// `pattern` pseudo-localized: its placeholders (`%@`, `%1$@`, `%'lld`, `%.2f`, `%%`,
    /// `%#@name@`, `%arg`, `{name}`) kept as written, white space and other scripts kept, the
    /// rest changed as the pseudo-locale says. Empty stays empty. The pseudo-locale's own output
    /// comes back unchanged, so text already transformed is never transformed twice.
    public func transform(_ pattern: String) -> String {
        guard !pattern.isEmpty, !isOutput(pattern) else { return pattern }
        return whole(PseudoPattern(pattern))
    }

    /// A piece of a pattern (a substitution's plural form) put inside a whole that is transformed
    /// itself: changed like the whole, without brackets and padding of its own.
    public func transformFragment(_ pattern: String) -> String {
        fragment(PseudoPattern(pattern))
    }

    private func whole(_ pattern: PseudoPattern) -> String {
        switch self {
        case .accented:
            let padding = Self.padding(forLength: pattern.textLength)
            return "[" + fragment(pattern) + (padding.isEmpty ? "" : " " + padding) + "]"
        case .bidi:
            return fragment(pattern)
        }
    }

    private func fragment(_ pattern: PseudoPattern) -> String {
        var output = ""
        for piece in pattern.pieces {
            switch piece {
            case .placeholder(let raw): output += raw
            case .text(let text):
                switch self {
                case .accented: output += Self.accent(text)
                case .bidi: output += Self.isolateWords(text)
                }
            }
        }
        return output
    }

    /// Whether `text` is what `transform` makes of some pattern.
    private func isOutput(_ text: String) -> Bool {
        switch self {
        case .bidi:
            guard text.unicodeScalars.contains(Self.rlo) else { return false }
            let bare = String(String.UnicodeScalarView(text.unicodeScalars.filter { !Self.marks.contains($0) }))
            return whole(PseudoPattern(bare)) == text
        case .accented:
            guard text.hasPrefix("["), text.hasSuffix("]"), text.count >= 2 else { return false }
            let body = text.dropFirst().dropLast()
            // The body is the accented text, then perhaps the padding, which starts " one".
            var cuts = [body.endIndex]
            cuts += body.indices.filter { body[$0...].hasPrefix(" one") }
            return cuts.contains { whole(PseudoPattern(String(body[..<$0]))) == text }
        }
    }

    // MARK: Accents and padding

    /// Each ASCII letter (a Character of one scalar) as an accented letter of one scalar, so the
    /// count of characters stays; anything else as it is.
    static func accent(_ text: Substring) -> String {
        var output = ""
        for character in text {
            if character.unicodeScalars.count == 1, let accented = accents[character] {
                output.append(accented)
            } else {
                output.append(character)
            }
        }
        return output
    }

    private static let accents: [Character: Character] = {
        let plain = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ!?")
        let accented = Array("åƀçðéƒĝĥîĵķļɱñöþǫŕšţûṽŵẋýžÅƁÇÐÉƑĜĤÎĴĶĻṀÑÖÞǪŔŜŢÛṼŴẊÝŽ¡¿")
        precondition(plain.count == accented.count && accented.allSatisfy { $0.unicodeScalars.count == 1 && !$0.isASCII })
        return Dictionary(uniqueKeysWithValues: zip(plain, accented))
    }()

    /// Whole words that make at least 40% of `length` characters, none for no text.
    static func padding(forLength length: Int) -> String {
        let wanted = (length * 2 + 4) / 5
        guard wanted > 0 else { return "" }
        var words: [Substring] = []
        var count = -1
        while count < wanted {
            let word = paddingWords[words.count % paddingWords.count]
            words.append(word)
            count += word.count + 1
        }
        return words.joined(separator: " ")
    }

    private static let paddingWords = "one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen"
        .split(separator: " ")

    // MARK: Bidi marks

    private static let rlm: Unicode.Scalar = "\u{200F}"
    private static let rlo: Unicode.Scalar = "\u{202E}"
    private static let pdf: Unicode.Scalar = "\u{202C}"
    private static let marks: Set<Unicode.Scalar> = [rlm, rlo, pdf]

    /// Each run of characters that are not white space as RLM, RLO, the run, PDF, RLM.
    static func isolateWords(_ text: Substring) -> String {
        var output = ""
        var inWord = false
        for character in text {
            let space = character.isWhitespace
            if !space, !inWord { output.unicodeScalars += [rlm, rlo] }
            if space, inWord { output.unicodeScalars += [pdf, rlm] }
            inWord = !space
            output.append(character)
        }
        if inWord { output.unicodeScalars += [pdf, rlm] }
        return output
    }
}

/// A pattern cut into its text and its placeholders, as `PseudoLocale` reads it.
struct PseudoPattern {
    enum Piece: Equatable {
        case text(Substring)
        case placeholder(Substring)
    }

    let pieces: [Piece]

    /// The characters of text, placeholders left out: what the padding lengthens.
    var textLength: Int {
        pieces.reduce(0) {
            if case .text(let text) = $1 { $0 + text.count } else { $0 }
        }
    }

    /// Read by Characters, as `FormatPattern` reads a pattern: a `%` or `{` that a combining mark
    /// joins is text.
    init(_ pattern: String) {
        var pieces: [Piece] = []
        var textStart = pattern.startIndex
        var index = pattern.startIndex
        while index < pattern.endIndex {
            guard let end = Self.placeholderEnd(in: pattern, at: index) else {
                index = pattern.index(after: index)
                continue
            }
            if textStart < index { pieces.append(.text(pattern[textStart..<index])) }
            pieces.append(.placeholder(pattern[index..<end]))
            index = end
            textStart = end
        }
        if textStart < pattern.endIndex { pieces.append(.text(pattern[textStart...])) }
        self.pieces = pieces
    }

    /// Where the placeholder that starts at `start` ends, or nil when none starts there.
    static func placeholderEnd(in text: String, at start: String.Index) -> String.Index? {
        switch text[start] {
        case "%": return percentEnd(in: text, after: text.index(after: start))
        case "{":
            var index = text.index(after: start)
            let nameStart = index
            while index < text.endIndex, text[index].isASCII, text[index].isLetter || text[index].isNumber || text[index] == "_" {
                index = text.index(after: index)
            }
            guard index > nameStart, index < text.endIndex, text[index] == "}", !text[nameStart].isNumber else { return nil }
            return text.index(after: index)
        default: return nil
        }
    }

    /// `%%`, `%arg`, `%[n$]#@name@` and printf's `%[n$][flags][width][.precision][length]conversion`.
    private static func percentEnd(in text: String, after percent: String.Index) -> String.Index? {
        var index = percent
        func peek() -> Character? { index < text.endIndex ? text[index] : nil }
        func skip(while accepted: (Character) -> Bool) {
            while let character = peek(), character.isASCII, accepted(character) { index = text.index(after: index) }
        }
        if text[percent...].hasPrefix("arg") { return text.index(percent, offsetBy: 3) }
        if peek() == "%" { return text.index(after: index) }
        let save = index
        skip(while: \.isNumber)
        if peek() == "$", index > save { index = text.index(after: index) } else { index = save }
        if peek() == "#", index < text.endIndex, text[text.index(after: index)...].hasPrefix("@") {
            index = text.index(index, offsetBy: 2)
            let nameStart = index
            skip(while: { $0.isLetter || $0.isNumber || $0 == "_" })
            guard index > nameStart, peek() == "@" else { return nil }
            return text.index(after: index)
        }
        // Not the space and `#` flags: "100% sure" is text, and `%#@` is a substitution.
        skip(while: { "'-+0".contains($0) })
        skip(while: \.isNumber)
        if peek() == "." {
            index = text.index(after: index)
            skip(while: \.isNumber)
        }
        skip(while: { "hlqztjL".contains($0) })
        guard let conversion = peek(), conversion.isASCII, "@dDiuUxXoOfFeEgGcCsSpaA".contains(conversion) else { return nil }
        return text.index(after: index)
    }
}
