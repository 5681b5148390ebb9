import AlertSpec

/// Puts a file catalog template's text members into words for one rendering: each text
/// translated by the catalog's String Catalog (else as written; in a pseudo-locale, its
/// source transformed), each formatted text filled
/// from the parameters, `{"system": "cancel"}` labels and Critical Moments' OK and Cancel in
/// the platform's words.
struct TemplateText {
    let translations: CatalogTranslations?
    /// Whether buttons with the ids `ok` and `cancel` are the platform's (Critical Moments).
    let systemButtons: Bool

    /// `tree` for `context`, formatted texts filled from `values` (typed by the template).
    func localize(_ tree: JSONTree, in context: RenderContext, values: [String: ParameterValue]) -> JSONTree {
        tree.mapObjects { members in
            // A formatted text or a system word is put into words by the object holding it.
            if FormattedText(members) != nil || Self.systemWord(members) != nil { return members }
            var members = members
            for key in CatalogTranslations.textMembers {
                switch members[key] {
                case .string(let text)?:
                    members[key] = .string(translations?.strings.value(text, in: context) ?? Self.untranslated(text, context))
                case .object(let inner)?:
                    if let formatted = FormattedText(inner) {
                        let arguments = formatted.arguments.map { values[$0].map(FormatArgument.init) ?? .string("") }
                        members[key] = .string(words(LocalizedText(formatted.text, default: formatted.text, arguments: arguments), context))
                    } else if let word = Self.systemWord(inner) {
                        members[key] = .string(SystemWords.word(word, locale: context.systemLocale))
                    }
                default:
                    break
                }
            }
            if systemButtons, members["label"] != nil, let id = members["id"]?.string, let word = ["ok": SystemText.ok, "cancel": .cancel][id] {
                members["label"] = .string(SystemWords.word(word, locale: context.systemLocale))
            }
            return members
        }
    }

    private func words(_ text: LocalizedText, _ context: RenderContext) -> String {
        if let translations { return translations.strings.string(text, in: context) }
        return TextFormatter.format(Self.untranslated(text.defaultValue, context), text.arguments, locale: context.locale)
    }

    /// A text no String Catalog translates, as written; in a pseudo-locale, transformed (its
    /// `{name}` placeholders kept, filled afterwards).
    private static func untranslated(_ text: String, _ context: RenderContext) -> String {
        PseudoLocale(tag: context.locale)?.transform(text) ?? text
    }

    /// The system word `{"system": "<name>"}` names (`ok`, `cancel`, `notNow`, `done`, `close`).
    static func systemWord(_ members: [String: JSONTree]) -> SystemText? {
        guard members.count == 1, let name = members["system"]?.string else { return nil }
        return SystemText(rawValue: name)
    }

    /// The `{"system": …}` objects of `tree` that name no system word, with their pointers.
    static func systemWordProblems(in tree: JSONTree, at pointer: String = "") -> [(pointer: String, name: String)] {
        switch tree {
        case .object(let members):
            if members.count == 1, let name = members["system"]?.string {
                return SystemText(rawValue: name) == nil ? [(pointer, name)] : []
            }
            return members.keys.sorted().flatMap { systemWordProblems(in: members[$0]!, at: pointer + "/" + JSONPointer.escape($0)) }
        case .array(let items): return items.enumerated().flatMap { systemWordProblems(in: $1, at: "\(pointer)/\($0)") }
        default: return []
        }
    }

    /// Every text a template's alert shows as written, the keys it looks up in the String Catalog.
    static func keys(in tree: JSONTree) -> Set<String> {
        var keys = Set<String>()
        func visit(_ tree: JSONTree) {
            switch tree {
            case .object(let members):
                if let formatted = FormattedText(members) {
                    keys.insert(formatted.text)
                    return
                }
                for (key, value) in members {
                    if textMembers.contains(key), let text = value.string { keys.insert(text) }
                    visit(value)
                }
            case .array(let items): items.forEach(visit)
            default: break
            }
        }
        visit(tree)
        return keys
    }

    private static var textMembers: Set<String> { CatalogTranslations.textMembers }
}
