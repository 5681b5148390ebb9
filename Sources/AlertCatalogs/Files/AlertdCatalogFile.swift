import AlertSpec

/// alertd's own catalog file format:
///
/// ```json
/// {
///   "sourceLanguage": "en",
///   "alerts": {
///     "welcome": {"kind": "alert", "title": "Welcome, {name}!", "actions": [{"id": "ok", "label": "OK"}]}
///   },
///   "examples": {"welcome": {"name": "Ana"}}
/// }
/// ```
///
/// `sourceLanguage` defaults to `en`. Each template is a spec draft whose `{name}` placeholders
/// are its parameters; its one member that is not the spec's, `pacing`, is how often the alert
/// may be shown (`Pacing`). `examples` is optional: a parameter without an example value is
/// checked and listed with its own name as the value. The format is closed: any other member is
/// an error.
enum AlertdCatalogFile {
    static let members: Set<String> = ["sourceLanguage", "alerts", "examples"]

    static func read(
        _ root: JSONTree, into problems: inout ProblemList
    ) -> (sourceLanguage: String, templates: [(type: String, template: SpecTemplate)], pacing: [String: Pacing]) {
        let none = CatalogProblem.none
        for key in (root.object ?? [:]).keys.sorted() where !members.contains(key) {
            problems.error(
                none, "/" + JSONPointer.escape(key), "unknown-field",
                "\"\(key)\" is not a field of a catalog file; use sourceLanguage, alerts and examples.")
        }

        var sourceLanguage = "en"
        switch root["sourceLanguage"] {
        case nil: break
        case .string(let tag)? where isLanguageTag(tag): sourceLanguage = tag
        case let other?:
            problems.error(
                none, "/sourceLanguage", "invalid-value",
                "The source language must be a language tag such as \"en\" or \"pt-BR\", not \(other.described).")
        }

        guard let alerts = root["alerts"]?.object else {
            problems.error(none, "/alerts", "invalid-type", "\"alerts\" must be an object of spec templates by alert type.")
            return (sourceLanguage, [], [:])
        }
        if alerts.isEmpty { problems.error(none, "/alerts", "no-alert", "A catalog needs at least one alert.") }

        let examples = self.examples(root["examples"], types: Set(alerts.keys), into: &problems)
        var templates: [(type: String, template: SpecTemplate)] = []
        var pacing: [String: Pacing] = [:]
        for (type, entry) in alerts.sorted(by: { $0.key < $1.key }) {
            guard var members = entry.object else {
                problems.error(type, "", "invalid-type", "A template must be an object (a spec draft), not \(entry.typeName).")
                continue
            }
            if let declared = members.removeValue(forKey: "pacing"), !declared.isNull {
                var issues: [SpecIssue] = []
                if let rule = Pacing(json: declared, at: "/pacing", issues: &issues) { pacing[type] = rule }
                for issue in issues { problems.error(type, issue.pointer, issue.code, issue.message) }
            }
            let tree = JSONTree.object(members)
            for (pointer, message) in FormattedText.problems(in: tree) {
                problems.error(type, pointer, "invalid-formatted-text", message)
            }
            for (pointer, name) in TemplateText.systemWordProblems(in: tree) {
                problems.error(
                    type, pointer, "unknown-system-word",
                    "\"\(name)\" is not a system word; use \(SystemText.allCases.map(\.rawValue).joined(separator: ", ")).")
            }
            let template = SpecTemplate(placeholdersIn: tree, examples: examples[type] ?? [:])
            for name in (examples[type] ?? [:]).keys.sorted() where !template.parameters.contains(name) {
                problems.error(
                    none, "/examples/\(JSONPointer.escape(type))/\(JSONPointer.escape(name))", "unknown-parameter",
                    "The alert \"\(type)\" has no placeholder {\(name)}.")
            }
            templates.append((type, template))
        }
        return (sourceLanguage, templates, pacing)
    }

    /// `examples`: by alert type, parameter values as text.
    private static func examples(
        _ tree: JSONTree?, types: Set<String>, into problems: inout ProblemList
    ) -> [String: [String: String]] {
        guard let tree else { return [:] }
        let none = CatalogProblem.none
        guard let byType = tree.object else {
            problems.error(none, "/examples", "invalid-type", "\"examples\" must be an object of parameter values by alert type.")
            return [:]
        }
        var result: [String: [String: String]] = [:]
        for (type, values) in byType {
            let at = "/examples/" + JSONPointer.escape(type)
            guard types.contains(type) else {
                problems.error(none, at, "unknown-alert", "There is no alert \"\(type)\" in \"alerts\".")
                continue
            }
            guard let values = values.object else {
                problems.error(none, at, "invalid-type", "The examples of an alert must be an object of parameter values.")
                continue
            }
            for (name, value) in values {
                switch value {
                case .string(let text): result[type, default: [:]][name] = text
                case .integer(let number): result[type, default: [:]][name] = String(number)
                case .number(let number): result[type, default: [:]][name] = String(number)
                case .bool(let flag): result[type, default: [:]][name] = String(flag)
                case .null, .array, .object:
                    problems.error(
                        none, at + "/" + JSONPointer.escape(name), "invalid-type",
                        "An example value must be a string, a number or a boolean, not \(value.typeName).")
                }
            }
        }
        return result
    }

    /// `en`, `pt-BR`, `zh-Hant-TW`: letters first, then subtags of letters and digits.
    static func isLanguageTag(_ tag: String) -> Bool {
        let parts = tag.split(separator: "-", omittingEmptySubsequences: false)
        guard let first = parts.first, (2...8).contains(first.count), first.allSatisfy({ $0.isASCII && $0.isLetter }) else {
            return false
        }
        return parts.dropFirst().allSatisfy { (1...8).contains($0.count) && $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) } }
    }
}
