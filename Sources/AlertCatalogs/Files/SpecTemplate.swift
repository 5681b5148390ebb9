import AlertSpec

/// One alert of a file catalog: a spec draft as a JSON tree whose strings may hold `{name}`
/// placeholders and whose text members may be formatted texts (`FormattedText`). Each
/// placeholder is a required string parameter, each formatted text's argument a required
/// parameter of its specifier's type; rendering fills them in the tree (so a value can never
/// change the JSON's structure) and inserts each value as given (a `{x}` or `%@` inside a value
/// stays literal).
struct SpecTemplate: Sendable {
    let tree: JSONTree
    /// Its parameters, sorted by name.
    let parameters: [String]
    /// Each parameter's type: text unless a formatted text takes it as a number.
    let types: [String: ParameterType]
    /// The values it is checked with at load and listed with.
    let example: [String: ParameterValue]
    /// Where a pointer into the rendered spec points within the file's entry.
    let pointers: PointerMap

    /// A template whose strings' placeholders and formatted texts' arguments are its
    /// parameters; examples default to a string parameter's own name, to 3 for an integer and
    /// 2.5 for a number.
    init(placeholdersIn tree: JSONTree, examples: [String: String] = [:]) {
        self.tree = tree
        var types: [String: ParameterType] = [:]
        for name in tree.strings.flatMap(Self.placeholders(in:)) { types[name] = .string }
        for formatted in FormattedText.all(in: tree) {
            for (name, type) in formatted.types where types[name] == nil || types[name] == .string || type == .number {
                types[name] = type
            }
        }
        self.types = types
        self.parameters = types.keys.sorted()
        self.example = Dictionary(uniqueKeysWithValues: types.map { name, type in
            let given = examples[name]
            return switch type {
            case .integer: (name, .integer(given.flatMap { Int($0) } ?? 3))
            case .number: (name, .number(given.flatMap { Double($0) } ?? 2.5))
            case .string, .boolean: (name, .string(given ?? name))
            }
        })
        self.pointers = PointerMap()
    }

    /// A template without parameters: every string is literal.
    init(literal tree: JSONTree, pointers: PointerMap) {
        self.tree = tree
        self.parameters = []
        self.types = [:]
        self.example = [:]
        self.pointers = pointers
    }

    var parameterInfos: [ParameterInfo] {
        parameters.map { ParameterInfo(name: $0, type: types[$0] ?? .string, required: true) }
    }

    /// The values as the parameters' types: a query item's text read as the number a formatted
    /// text takes. Throws `ParameterError` for a missing parameter, then for one the template
    /// does not take, then for a value that is not of its type.
    func typed(_ values: [String: ParameterValue]) throws -> [String: ParameterValue] {
        if let missing = parameters.first(where: { values[$0] == nil }) {
            throw ParameterError.missing(missing, types[missing] ?? .string)
        }
        if let unknown = values.keys.sorted().first(where: { types[$0] == nil }) {
            throw ParameterError.unknown(unknown)
        }
        var typed = values
        for (name, value) in values {
            switch (types[name] ?? .string, value) {
            case (.integer, .integer), (.number, .number), (.string, _), (.boolean, _): continue
            case (.number, .integer(let number)): typed[name] = .number(Double(number))
            case (.integer, .number(let number)) where number == number.rounded() && abs(number) < 1e15: typed[name] = .integer(Int(number))
            case (.integer, .string(let text)) where Int(text) != nil: typed[name] = .integer(Int(text)!)
            case (.number, .string(let text)) where Double(text)?.isFinite == true: typed[name] = .number(Double(text)!)
            case (let type, _): throw ParameterError.mistyped(name, expected: type, value: value.description)
            }
        }
        return typed
    }

    /// The tree with the `{name}` placeholders filled from `values` (already `typed`).
    func filled(with values: [String: ParameterValue], in tree: JSONTree? = nil) -> JSONTree {
        let tree = tree ?? self.tree
        guard !parameters.isEmpty else { return tree }
        let texts = values.mapValues(\.description)
        return tree.mapStrings { Self.substitute(texts, into: $0) }
    }

    /// Whether `name` can name a parameter: `[A-Za-z_][A-Za-z0-9_]*`.
    static func isParameterName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first else { return false }
        return isNameScalar(first, first: true) && name.unicodeScalars.dropFirst().allSatisfy { isNameScalar($0, first: false) }
    }

    // MARK: Placeholders

    private enum Piece {
        case literal(Substring)
        case placeholder(name: Substring, raw: Substring)
    }

    /// The names of the `{name}` placeholders in `text`, in order (name = `[A-Za-z_][A-Za-z0-9_]*`).
    static func placeholders(in text: String) -> [String] {
        pieces(of: text).compactMap {
            if case .placeholder(let name, _) = $0 { String(name) } else { nil }
        }
    }

    /// `text` with each placeholder named in `values` replaced by its value, in one pass: what is
    /// inserted is never scanned again. Other braces stay as written.
    static func substitute(_ values: [String: String], into text: String) -> String {
        var result = ""
        for piece in pieces(of: text) {
            switch piece {
            case .literal(let literal): result += literal
            case .placeholder(let name, let raw): result += values[String(name)] ?? String(raw)
            }
        }
        return result
    }

    private static func pieces(of text: String) -> [Piece] {
        let scalars = text.unicodeScalars
        var pieces: [Piece] = []
        var literalStart = scalars.startIndex
        var index = scalars.startIndex
        while index < scalars.endIndex {
            guard scalars[index] == "{" else {
                index = scalars.index(after: index)
                continue
            }
            let nameStart = scalars.index(after: index)
            var end = nameStart
            while end < scalars.endIndex, isNameScalar(scalars[end], first: end == nameStart) {
                end = scalars.index(after: end)
            }
            guard end > nameStart, end < scalars.endIndex, scalars[end] == "}" else {
                index = nameStart
                continue
            }
            if literalStart < index { pieces.append(.literal(text[literalStart..<index])) }
            let after = scalars.index(after: end)
            pieces.append(.placeholder(name: text[nameStart..<end], raw: text[index..<after]))
            index = after
            literalStart = after
        }
        if literalStart < scalars.endIndex { pieces.append(.literal(text[literalStart...])) }
        return pieces
    }

    private static func isNameScalar(_ scalar: Unicode.Scalar, first: Bool) -> Bool {
        switch scalar {
        case "A"..."Z", "a"..."z", "_": true
        case "0"..."9": !first
        default: false
        }
    }
}

/// Translates JSON pointers into a rendered spec back to where the value came from in the
/// file's entry. A rule maps a spec pointer and everything under it to one place in the file;
/// the longest matching rule wins; with no rule a pointer is kept as it is (a template's
/// pointers are the spec's own).
struct PointerMap: Sendable {
    private var rules: [(spec: String, source: String)] = []

    init() {}

    /// Maps `spec` and every pointer under it to `source`.
    mutating func map(_ spec: String, to source: String) {
        rules.append((spec, source))
    }

    func source(for pointer: String) -> String {
        let match = rules
            .filter { pointer == $0.spec || pointer.hasPrefix($0.spec + "/") }
            .max { $0.spec.count < $1.spec.count }
        return match?.source ?? pointer
    }
}
