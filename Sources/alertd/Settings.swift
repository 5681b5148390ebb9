import Foundation

/// Resolves each setting from its flag, then its `ALERTD_*` environment twin, then its default,
/// collecting one line per bad value so that start-up reports them all at once.
struct Settings {
    private let environment: [String: String]
    private(set) var problems: [String] = []

    init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.environment = environment
    }

    /// A flag's value, else its environment twin parsed with `parse`, else `fallback`.
    mutating func value<T>(
        _ flag: T?, flagName: String, env name: String, default fallback: T, expected: String,
        parse: (String) -> T?
    ) -> T {
        if let flag { return flag }
        guard let text = environment[name], !text.isEmpty else { return fallback }
        guard let value = parse(text) else {
            problems.append("\(name) (--\(flagName)): expected \(expected), got \"\(text)\"")
            return fallback
        }
        return value
    }

    mutating func string(_ flag: String?, flagName: String, env name: String, default fallback: String) -> String {
        value(flag, flagName: flagName, env: name, default: fallback, expected: "text") { $0 }
    }

    mutating func integer(_ flag: Int?, flagName: String, env name: String, default fallback: Int) -> Int {
        value(flag, flagName: flagName, env: name, default: fallback, expected: "a whole number") { Int($0) }
    }

    /// A setting with no default: the flag, else its environment twin, else nil. (Through
    /// `value` a nil flag would arrive as `.some(nil)` and hide the environment.)
    func optionalString(_ flag: String?, env name: String) -> String? {
        if let flag { return flag }
        guard let text = environment[name], !text.isEmpty else { return nil }
        return text
    }

    mutating func report(_ problem: String) { problems.append(problem) }
}
