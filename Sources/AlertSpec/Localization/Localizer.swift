/// Turns localized text into words for one locale.
public protocol Localizer: Sendable {
    /// The language the catalog is written in (the fallback).
    var sourceLanguage: String { get }
    /// Every locale the catalog renders, the source language included.
    var locales: [String] { get }
    /// The format string for `text` in `locale` (one of `locales`), before arguments are applied.
    func format(for text: LocalizedText, locale: String) -> String
}

extension Localizer {
    /// The finished words: the locale's format with the text's arguments substituted.
    public func string(_ text: LocalizedText, locale: String) -> String {
        TextFormatter.format(format(for: text, locale: locale), text.arguments)
    }
}

/// Renders in the source language only: each text's default value.
public struct SourceLocalizer: Localizer {
    public let sourceLanguage: String
    public var locales: [String] { [sourceLanguage] }

    public init(sourceLanguage: String = "en") { self.sourceLanguage = sourceLanguage }

    public func format(for text: LocalizedText, locale: String) -> String { text.defaultValue }
}
