/// Turns localized text into words for one locale.
public protocol Localizer: Sendable {
    /// The language the catalog is written in (the fallback).
    var sourceLanguage: String { get }
    /// Every locale the catalog renders, the source language first.
    var locales: [String] { get }
    /// The finished words of `text` in `locale` (one of `locales`): the translation, its plural
    /// form chosen by the arguments, the arguments substituted.
    func string(_ text: LocalizedText, locale: String) -> String
}

/// Renders in the source language only: each text's default value, and the system words of
/// that language.
public struct SourceLocalizer: Localizer {
    public let sourceLanguage: String
    public var locales: [String] { [sourceLanguage] }

    public init(sourceLanguage: String = "en") { self.sourceLanguage = sourceLanguage }

    public func string(_ text: LocalizedText, locale: String) -> String {
        if text.table == .system, let word = SystemText(key: text.key) { return SystemWords.word(word, locale: locale) }
        return TextFormatter.format(text.defaultValue, text.arguments, locale: locale)
    }
}

extension SystemText {
    /// The system word a `system.<name>` key names.
    init?(key: String) {
        guard key.hasPrefix("system.") else { return nil }
        self.init(rawValue: String(key.dropFirst("system.".count)))
    }
}
