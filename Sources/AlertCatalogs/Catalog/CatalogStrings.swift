import AlertSpec
import Foundation
import Locking

extension StringCatalog.Localization {
    /// Its translation state as a whole: `translated` when every string unit is, else the
    /// state of the first unit that is not (`needs_review`, `new`, `stale`).
    var state: String {
        let states = units.map { $0.state ?? "translated" }
        return states.first { $0 != "translated" } ?? (states.isEmpty ? "new" : "translated")
    }

    /// Every string unit in it: its own, its variations', its substitutions'.
    private var units: [StringCatalog.StringUnit] {
        let variations = [variations?.device, variations?.plural].compactMap { $0 }.flatMap { $0.values.flatMap(\.units) }
        let substituted = (substitutions ?? [:]).values.flatMap { substitution in
            [substitution.variations?.device, substitution.variations?.plural].compactMap { $0 }.flatMap { $0.values.flatMap(\.units) }
        }
        return [stringUnit].compactMap { $0 } + variations + substituted
    }
}

/// The translation state of a built-in catalog: every key its alerts use (found by rendering
/// every sample in every locale) and every key of its String Catalog, with each key's state in
/// each locale. `alertd catalog strings` prints it; `--missing` lists only the gaps.
public struct CatalogStrings: Sendable {
    public let catalog: String
    public let locales: [String]
    /// Key → locale → state (`translated`, `needs_review`, …); a locale absent is a missing translation.
    public let states: [String: [String: String]]
    /// Keys an alert uses that the String Catalog lacks altogether.
    public let undeclared: Set<String>

    /// The gaps, one line each: `catalog: key: locale: state`.
    public var gaps: [String] {
        states.keys.sorted().flatMap { key in
            locales.compactMap { locale -> String? in
                let state = states[key]?[locale]
                if state == "translated" { return nil }
                let why = undeclared.contains(key) ? "not in the String Catalog" : state ?? "missing"
                return "\(catalog): \(key): \(locale): \(why)"
            }
        }
    }

    /// Both built-in catalogs.
    public static func builtIn() throws -> [CatalogStrings] {
        [try report("app", AppAlert.self), try report("onboarding", OnboardingAlert.self)]
    }

    static func report<Target: AlertTarget>(_ name: String, _: Target.Type) throws -> CatalogStrings {
        guard let url = Bundle.module.url(forResource: name, withExtension: "xcstrings") else {
            throw CatalogError.invalid(catalog: name, problems: ["its String Catalog \(name).xcstrings is not bundled"])
        }
        let strings = try StringCatalog(contentsOf: url)
        let recorder = KeyRecorder(try CatalogRegistry.builtInStrings(name))
        _ = try EnumCatalog(name: name, Target.self, localizer: recorder)
        let used = recorder.keys.withLock { $0 }
        var states: [String: [String: String]] = [:]
        for key in used.union(strings.strings.keys) {
            var byLocale: [String: String] = [:]
            for (locale, localization) in strings.strings[key]?.localizations ?? [:] {
                byLocale[locale] = localization.state
            }
            states[key] = byLocale
        }
        return CatalogStrings(
            catalog: name, locales: strings.locales, states: states, undeclared: used.subtracting(strings.strings.keys))
    }
}

/// Passes every request to a localizer and remembers which catalog keys were asked for.
public final class KeyRecorder: Localizer {
    public let inner: any Localizer
    public let keys = Locked<Set<String>>([])

    public init(_ inner: any Localizer) { self.inner = inner }

    public var sourceLanguage: String { inner.sourceLanguage }
    public var locales: [String] { inner.locales }
    public var variesByDevice: Bool { inner.variesByDevice }

    public func string(_ text: LocalizedText, in context: RenderContext) -> String {
        if text.table == .catalog { keys.withLock { _ = $0.insert(text.key) } }
        return inner.string(text, in: context)
    }
}
