/// A piece of user-visible text: a key into the catalog's translations, its source-language
/// value, and the arguments its format placeholders (`%@`, `%lld`, `%1$@`, …) take.
///
/// ```swift
/// LocalizedText("newMessages.title", default: "%@ sent you messages", .string(sender))
/// ```
public struct LocalizedText: Sendable, Equatable {
    /// Where the words come from.
    public enum Table: Sendable, Equatable {
        /// The alert catalog's own translations.
        case catalog
        /// The platform's standard words (OK, Cancel), shared by every catalog.
        case system
    }

    public var key: String
    /// The text in the catalog's source language, with format placeholders.
    public var defaultValue: String
    public var arguments: [FormatArgument]
    public var table: Table

    public init(_ key: String, default defaultValue: String, _ arguments: FormatArgument..., table: Table = .catalog) {
        self.init(key, default: defaultValue, arguments: arguments, table: table)
    }

    public init(_ key: String, default defaultValue: String, arguments: [FormatArgument], table: Table = .catalog) {
        self.key = key
        self.defaultValue = defaultValue
        self.arguments = arguments
        self.table = table
    }
}

/// A value substituted into a format placeholder. Values are inserted as given: a `%` inside a
/// string argument is never read as another placeholder.
public enum FormatArgument: Sendable, Equatable, ExpressibleByStringLiteral, ExpressibleByIntegerLiteral {
    case string(String)
    case integer(Int)
    case number(Double)

    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int) { self = .integer(value) }
}

/// The platform's standard button words, which clients show in the system's own language.
public enum SystemText: String, Sendable, CaseIterable {
    case ok, cancel, notNow, done, close

    /// The text, keyed `system.<name>`, in the system table.
    public var text: LocalizedText {
        switch self {
        case .ok: LocalizedText("system.ok", default: "OK", table: .system)
        case .cancel: LocalizedText("system.cancel", default: "Cancel", table: .system)
        case .notNow: LocalizedText("system.notNow", default: "Not Now", table: .system)
        case .done: LocalizedText("system.done", default: "Done", table: .system)
        case .close: LocalizedText("system.close", default: "Close", table: .system)
        }
    }
}
