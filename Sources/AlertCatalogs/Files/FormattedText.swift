import AlertSpec

/// A text member written as a String Catalog key with format specifiers and the parameters
/// that fill them, in order: `{"text": "%lld new messages from %@", "arguments": ["count", "sender"]}`.
/// Each argument is a parameter of the alert, typed by its specifier (`%lld`, `%d` an integer,
/// `%f` a number, `%@` a string).
struct FormattedText: Equatable {
    var text: String
    var arguments: [String]

    /// The formatted text an object is, or nil when it is not one (exactly `text` and `arguments`).
    init?(_ members: [String: JSONTree]) {
        guard members.count == 2, let text = members["text"]?.string, let list = members["arguments"]?.array else { return nil }
        let names = list.compactMap(\.string)
        guard names.count == list.count else { return nil }
        self.text = text
        self.arguments = names
    }

    /// Each argument's type, from the specifier at its position in `text`: an argument without
    /// one is text.
    var types: [(name: String, type: ParameterType)] {
        var kinds: [Int: Character] = [:]
        for placeholder in TextFormatter.placeholders(in: text) { kinds[placeholder.position] = placeholder.conversion }
        return arguments.enumerated().map { index, name in
            switch kinds[index] {
            case "d"?, "i"?, "u"?: (name, .integer)
            case "f"?: (name, .number)
            default: (name, .string)
            }
        }
    }

    /// What is wrong with how `tree`'s formatted texts are written, with pointers: arguments that
    /// are not parameter names, fewer arguments than the text's specifiers.
    static func problems(in tree: JSONTree, at pointer: String = "") -> [(pointer: String, message: String)] {
        switch tree {
        case .object(let members):
            if members["arguments"] != nil, members.count == 2, members["text"] != nil {
                guard let formatted = FormattedText(members) else {
                    return [(pointer, "A formatted text is {\"text\": …, \"arguments\": [parameter names]}.")]
                }
                var found: [(String, String)] = []
                for (index, name) in formatted.arguments.enumerated() where !SpecTemplate.isParameterName(name) {
                    found.append(("\(pointer)/arguments/\(index)", "\"\(name)\" cannot name a parameter: use letters, digits and _."))
                }
                let needed = (TextFormatter.placeholders(in: formatted.text).map(\.position).max() ?? -1) + 1
                if needed > formatted.arguments.count {
                    found.append(("\(pointer)/arguments", "\"\(formatted.text)\" takes \(needed) arguments, not \(formatted.arguments.count)."))
                }
                return found
            }
            return members.keys.sorted().flatMap { problems(in: members[$0]!, at: pointer + "/" + JSONPointer.escape($0)) }
        case .array(let items):
            return items.enumerated().flatMap { problems(in: $1, at: "\(pointer)/\($0)") }
        default:
            return []
        }
    }

    /// Every formatted text in `tree`.
    static func all(in tree: JSONTree) -> [FormattedText] {
        switch tree {
        case .object(let members):
            if let formatted = FormattedText(members) { return [formatted] }
            return members.keys.sorted().flatMap { all(in: members[$0]!) }
        case .array(let items): return items.flatMap(all(in:))
        default: return []
        }
    }
}

extension FormatArgument {
    /// A parameter's value as a format argument.
    init(_ value: ParameterValue) {
        switch value {
        case .integer(let number): self = .integer(number)
        case .number(let number): self = .number(number)
        case .string(let text): self = .string(text)
        case .boolean(let flag): self = .string(String(flag))
        }
    }
}
