import Foundation

/// Resolves each setting from its flag, then its `ALERTD_*` environment twin, then the
/// configuration file, then its default; collects one line per bad value so that start-up
/// reports them all at once, and remembers where each value came from for `--print-config`.
struct Settings {
    /// Where a setting's value came from.
    enum Source: Equatable, CustomStringConvertible {
        case flag(String)
        case environment(String)
        case file(String)
        case fallback

        var description: String {
            switch self {
            case .flag(let name): "--\(name)"
            case .environment(let name): name
            case .file(let path): path
            case .fallback: "default"
            }
        }
    }

    /// One resolved setting, as `--print-config` shows it.
    struct Resolved {
        let name: String
        /// The value as YAML (a quoted string, a number, `~` for none); nil for a secret.
        let value: String?
        let source: Source
        /// What an unset setting means (its default is worked out at start), if anything.
        let note: String?
    }

    private let environment: [String: String]
    private let file: ConfigFile?
    private(set) var problems: [String] = []
    private(set) var resolved: [Resolved] = []

    init(environment: [String: String] = ProcessInfo.processInfo.environment, file: (file: ConfigFile, problems: [String])? = nil) {
        self.environment = environment
        self.file = file?.file
        problems = file?.problems ?? []
    }

    /// A flag's value, else its environment twin, else the configuration file's, each parsed
    /// with `parse`, else `fallback`. `show` writes the value for `--print-config` (passwords
    /// hidden); a secret is never shown.
    mutating func value<T>(
        _ flag: T?, _ setting: Setting, default fallback: T, expected: String, show: ((T) -> String)? = nil,
        parse: (String) -> T?
    ) -> T {
        let (flagName, name, secret) = (setting.name, setting.environment, setting.isSecret)
        func record(_ value: T, _ source: Source) -> T {
            let text = secret ? nil : show.map { $0(value) } ?? Self.yaml(value)
            resolved.append(Resolved(name: flagName, value: text, source: source, note: nil))
            return value
        }
        if let flag { return record(flag, .flag(flagName)) }
        if let text = environment[name], !text.isEmpty {
            if let value = parse(text) { return record(value, .environment(name)) }
            problems.append("\(name) (--\(flagName)): expected \(expected), got \(secret ? "a bad value" : "\"\(text)\"")")
        } else if let file, let text = file.values[flagName] {
            if let value = parse(text) { return record(value, .file(file.path)) }
            problems.append("\(file.path): \(flagName): expected \(expected), got \(secret ? "a bad value" : "\"\(text)\"")")
        }
        return record(fallback, .fallback)
    }

    /// A text setting; `fallback` is needed only when the declaration describes its default
    /// rather than giving it.
    mutating func string(
        _ flag: String?, _ setting: Setting, default fallback: String? = nil, show: ((String) -> String)? = nil
    ) -> String {
        value(flag, setting, default: fallback ?? Self.declaredText(setting), expected: "text", show: show) { $0 }
    }

    /// A whole-number setting; `fallback` is needed only when the declaration describes its
    /// default rather than giving it.
    mutating func integer(_ flag: Int?, _ setting: Setting, default fallback: Int? = nil) -> Int {
        value(flag, setting, default: fallback ?? Self.declaredNumber(setting), expected: "a whole number") { Int($0) }
    }

    /// A setting with no default: the flag, else its environment twin, else the file's, else
    /// nil — which the declared default explains in `--print-config`. (Through `value` a nil
    /// flag would arrive as `.some(nil)` and hide the others.)
    mutating func optionalString(_ flag: String?, _ setting: Setting) -> String? {
        func record(_ value: String?, _ source: Source) -> String? {
            let text = value == nil ? "~" : setting.isSecret ? nil : Self.yaml(value!)
            resolved.append(
                Resolved(name: setting.name, value: text, source: source, note: value == nil ? setting.plainDefault : nil))
            return value
        }
        if let flag { return record(flag, .flag(setting.name)) }
        if let text = environment[setting.environment], !text.isEmpty { return record(text, .environment(setting.environment)) }
        if let file, let text = file.values[setting.name] { return record(text, .file(file.path)) }
        return record(nil, .fallback)
    }

    /// The default a declaration gives as text; a described one must come with the call.
    private static func declaredText(_ setting: Setting) -> String {
        guard case .text(let text) = setting.default else { preconditionFailure("\(setting.flag) has no text default") }
        return text
    }

    /// The default a declaration gives as a number; a described one must come with the call.
    private static func declaredNumber(_ setting: Setting) -> Int {
        guard case .number(let number) = setting.default else { preconditionFailure("\(setting.flag) has no number default") }
        return number
    }

    mutating func report(_ problem: String) { problems.append(problem) }

    /// Reports each setting of the configuration file that nothing asked for: a misspelt or
    /// unknown name must stop start-up, not be ignored. Call it once every setting is resolved.
    mutating func reportUnknownFileSettings() {
        guard let file else { return }
        let known = Set(resolved.map(\.name))
        for name in file.values.keys.sorted() where !known.contains(name) {
            let near = known.filter { Self.distance($0, name) <= 2 }.sorted().first
            problems.append("\(file.path): unknown setting \(name)" + (near.map { " (did you mean \($0)?)" } ?? ""))
        }
    }

    /// The effective configuration as a YAML document that `--config` reads back: one line per
    /// setting with its source; secrets as comments, never their value.
    var printed: String {
        let width = resolved.map { $0.name.count + ($0.value?.count ?? 10) + 2 }.max() ?? 0
        var lines = ["# alertd: effective settings (flag > ALERTD_* variable > --config file > default)"]
        for setting in resolved {
            let assignment = setting.value.map { "\(setting.name): \($0)" } ?? "# \(setting.name): (hidden)"
            let padding = String(repeating: " ", count: max(1, width + 2 - assignment.count))
            var comment = "# \(setting.source)"
            if let note = setting.note { comment += ": \(note)" }
            lines.append(assignment + padding + comment)
        }
        return lines.joined(separator: "\n")
    }

    /// A value as YAML: numbers as they are, text single-quoted (so `~`, `yes` or `08` stay text).
    private static func yaml<T>(_ value: T) -> String {
        guard let text = value as? String else { return "\(value)" }
        return "'" + text.replacing("'", with: "''") + "'"
    }

    /// Edit distance, for "did you mean".
    private static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        if a.isEmpty { return b.count }
        var row = Array(0...b.count)
        for i in 1...a.count {
            var previous = row[0]
            row[0] = i
            for j in stride(from: 1, through: b.count, by: 1) {
                let current = row[j]
                row[j] = min(row[j] + 1, row[j - 1] + 1, previous + (a[i - 1] == b[j - 1] ? 0 : 1))
                previous = current
            }
        }
        return row[b.count]
    }
}
