/// A `%#@name@` token of a String Catalog string (`%2$#@name@` with a position): it stands for
/// one argument, written by its substitution's plural form for that argument.
struct SubstitutionToken {
    var name: String
    /// 0-based, when the token names it.
    var position: Int?

    /// The tokens of `pattern`, in order.
    static func all(in pattern: String) -> [SubstitutionToken] {
        guard pattern.contains("#@") else { return [] }
        var tokens: [SubstitutionToken] = []
        scan(pattern) { piece in
            if case .token(let token, _) = piece { tokens.append(token) }
        }
        return tokens
    }

    /// `pattern` with each token replaced by the form of its substitution that fits its argument
    /// (`other` without arguments), `%arg` becoming a placeholder with the argument's position:
    /// the substitution's `argNum`, else the position the token names, else the next one in order,
    /// as printf counts. The string's other placeholders get their positions written out, so
    /// the expansion does not shift them.
    static func expand(
        _ pattern: String, _ substitutions: [String: StringCatalogLocalizer.Unit.Substitution], arguments: [FormatArgument]?,
        language: String
    ) -> String {
        guard pattern.contains("#@") else { return pattern }
        var result = ""
        var next = 0
        scan(pattern) { piece in
            switch piece {
            case .text(let text): result += text
            case .placeholder(let position, let rest):
                let position = position ?? next
                next = position + 1
                result += "%\(position + 1)$" + rest
            case .token(let token, let raw):
                guard let substitution = substitutions[token.name] else {
                    result += raw
                    return
                }
                let position = substitution.position ?? token.position ?? next
                next = position + 1
                var category = PluralCategory.other
                if let arguments, position < arguments.count {
                    category = PluralRules.form(of: arguments[position], language: language, hasZero: substitution.plural[.zero] != nil)
                }
                let form = substitution.plural[category] ?? substitution.plural[.other] ?? ""
                result += form.replacing("%arg", with: "%\(position + 1)$\(substitution.specifier)")
            }
        }
        return result
    }

    private enum Piece {
        case text(Substring)
        /// A printf placeholder: the position it names, and what follows `%` and the position.
        case placeholder(position: Int?, rest: Substring)
        case token(SubstitutionToken, raw: Substring)
    }

    private static func scan(_ pattern: String, _ visit: (Piece) -> Void) {
        var index = pattern.startIndex
        var text = index
        while index < pattern.endIndex {
            guard pattern[index] == "%" else {
                index = pattern.index(after: index)
                continue
            }
            let start = index
            var cursor = pattern.index(after: index)
            var digits = 0
            var position: Int?
            var afterPosition = cursor
            while cursor < pattern.endIndex, let digit = pattern[cursor].wholeNumberValue, pattern[cursor].isASCII, digits < 3 {
                digits = digits * 10 + digit
                cursor = pattern.index(after: cursor)
            }
            if cursor < pattern.endIndex, pattern[cursor] == "$", cursor > afterPosition, digits >= 1 {
                position = digits - 1
                cursor = pattern.index(after: cursor)
                afterPosition = cursor
            } else {
                cursor = afterPosition
            }
            if pattern[cursor...].hasPrefix("#@"), let close = pattern[pattern.index(cursor, offsetBy: 2)...].firstIndex(of: "@") {
                let name = pattern[pattern.index(cursor, offsetBy: 2)..<close]
                if !name.isEmpty {
                    if text < start { visit(.text(pattern[text..<start])) }
                    index = pattern.index(after: close)
                    text = index
                    visit(.token(SubstitutionToken(name: String(name), position: position), raw: pattern[start..<index]))
                    continue
                }
            }
            guard let (placeholder, end) = Placeholder.parse(pattern, at: afterPosition) else {
                index = pattern.index(after: start)
                continue
            }
            if text < start { visit(.text(pattern[text..<start])) }
            if placeholder.conversion == "%" {
                visit(.text("%%"))
            } else {
                visit(.placeholder(position: position, rest: pattern[afterPosition..<end]))
            }
            index = end
            text = index
        }
        if text < pattern.endIndex { visit(.text(pattern[text...])) }
    }
}
