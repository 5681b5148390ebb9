/// Turns localized text into words for one locale.
public protocol Localizer: Sendable {
    /// The language the catalog is written in (the fallback).
    var sourceLanguage: String { get }
    /// Every locale the catalog renders, the source language first.
    var locales: [String] { get }
    /// Whether some text varies by device.
    var variesByDevice: Bool { get }
    /// The finished words of `text` for `context` (its locale one of `locales`): the
    /// translation for the device, its plural form chosen by the arguments, the arguments
    /// substituted; system words in the context's system locale.
    func string(_ text: LocalizedText, in context: RenderContext) -> String
}

extension Localizer {
    public var variesByDevice: Bool { false }

    /// `text` in `locale`, system words too, on no particular device.
    public func string(_ text: LocalizedText, locale: String) -> String {
        string(text, in: RenderContext(locale: locale))
    }
}

/// Renders in the source language only: each text's default value, and the system words of
/// that language; in a pseudo-locale, the default values transformed.
public struct SourceLocalizer: Localizer {
    public let sourceLanguage: String
    public var locales: [String] { [sourceLanguage] }

    public init(sourceLanguage: String = "en") { self.sourceLanguage = sourceLanguage }

    public func string(_ text: LocalizedText, in context: RenderContext) -> String {
        if text.table == .system, let word = SystemText(key: text.key) { return SystemWords.word(word, locale: context.systemLocale) }
        let pattern = PseudoLocale(tag: context.locale)?.transform(text.defaultValue) ?? text.defaultValue
        return TextFormatter.format(pattern, text.arguments, locale: context.locale)
    }
}

extension SystemText {
    /// The system word a `system.<name>` key names.
    init?(key: String) {
        guard key.hasPrefix("system.") else { return nil }
        self.init(rawValue: String(key.dropFirst("system.".count)))
    }
}
