import Foundation

/// A String Catalog (`.xcstrings`), the JSON that Xcode writes: per key, per locale, a string
/// unit or variations (by device, by plural category, device then plural when nested), with
/// substitutions (`%#@name@`) that have variations of their own.
///
/// Reading is as forgiving as Xcode's build: an entry that cannot be read is kept aside in
/// `unreadable` with the reason, and the other entries are used.
public struct StringCatalog: Sendable, Decodable {
    /// The language the keys' source text is in, e.g. `en`.
    public var sourceLanguage: String
    /// Every readable key and its translations.
    public var strings: [String: Entry]
    /// Key → why its entry could not be read.
    public var unreadable: [String: String] = [:]

    /// One key: its translations by locale, and a note for translators.
    public struct Entry: Sendable, Decodable {
        public var localizations: [String: Localization]?
        public var comment: String?
        /// False for a key Xcode is told not to translate: every locale shows the key.
        public var shouldTranslate: Bool?

        public init(localizations: [String: Localization]? = nil, comment: String? = nil, shouldTranslate: Bool? = nil) {
            self.localizations = localizations
            self.comment = comment
            self.shouldTranslate = shouldTranslate
        }
    }

    /// One key in one locale, or one variation of it: a plain string, variations, and (at the
    /// top) substitutions.
    public struct Localization: Sendable, Decodable {
        public var stringUnit: StringUnit?
        public var variations: Variations?
        public var substitutions: [String: Substitution]?

        public init(stringUnit: StringUnit? = nil, variations: Variations? = nil, substitutions: [String: Substitution]? = nil) {
            self.stringUnit = stringUnit
            self.variations = variations
            self.substitutions = substitutions
        }
    }

    /// A translated string and its review state.
    public struct StringUnit: Sendable, Decodable {
        /// `translated`, `needs_review`, `new`, `stale`.
        public var state: String?
        public var value: String

        public init(state: String? = "translated", value: String) {
            self.state = state
            self.value = value
        }

        /// Whether Xcode builds it into the app: translated or waiting for review.
        public var ships: Bool { state == nil || state == "translated" || state == "needs_review" }
    }

    /// Variations of a string: by device (`iphone`, `ipad`, `mac`, `applewatch`, `other`, …),
    /// by CLDR plural category (`one`, `few`, `other`, …). A device variation may vary by
    /// plural in turn.
    public struct Variations: Sendable, Decodable {
        public var device: [String: Localization]?
        public var plural: [String: Localization]?

        public init(device: [String: Localization]? = nil, plural: [String: Localization]? = nil) {
            self.device = device
            self.plural = plural
        }
    }

    /// A `%#@name@` placeholder: the argument it depends on and its variations.
    public struct Substitution: Sendable, Decodable {
        /// 1-based position of the argument the variations depend on; nil when Xcode leaves it
        /// to the token's place among the string's placeholders.
        public var argNum: Int?
        /// Its format specifier without `%`, e.g. `lld`.
        public var formatSpecifier: String?
        public var variations: Variations?

        public init(argNum: Int? = nil, formatSpecifier: String? = nil, variations: Variations? = nil) {
            self.argNum = argNum
            self.formatSpecifier = formatSpecifier
            self.variations = variations
        }
    }

    public init(sourceLanguage: String, strings: [String: Entry]) {
        self.sourceLanguage = sourceLanguage
        self.strings = strings
    }

    public init(contentsOf url: URL) throws {
        self = try JSONDecoder().decode(StringCatalog.self, from: Data(contentsOf: url))
    }

    private enum CodingKeys: String, CodingKey { case sourceLanguage, strings }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        sourceLanguage = try container.decode(String.self, forKey: .sourceLanguage)
        let entries = try container.decodeIfPresent([String: ReadEntry].self, forKey: .strings) ?? [:]
        strings = entries.compactMapValues { try? $0.result.get() }
        for (key, entry) in entries {
            if case .failure(let error) = entry.result { unreadable[key] = error.reason }
        }
    }

    /// Every locale any key is localized in, the source language first.
    public var locales: [String] {
        var found = Set(strings.values.flatMap { $0.localizations?.keys.map { $0 } ?? [] })
        found.remove(sourceLanguage)
        return [sourceLanguage] + found.sorted()
    }

    /// An entry read on its own, so that one bad entry does not take the file with it.
    private struct ReadEntry: Decodable {
        var result: Result<Entry, EntryError>

        init(from decoder: any Decoder) throws {
            do {
                result = .success(try Entry(from: decoder))
            } catch let error as DecodingError {
                result = .failure(EntryError(error, below: decoder.codingPath.count))
            }
        }
    }

    struct EntryError: Error {
        var reason: String

        /// The error's path inside the entry (below the key) and what was wrong there.
        init(_ error: DecodingError, below depth: Int) {
            let (path, what): ([any CodingKey], String)
            switch error {
            case .typeMismatch(let type, let context): (path, what) = (context.codingPath, "is not a \(type)")
            case .valueNotFound(_, let context): (path, what) = (context.codingPath, "has no value")
            case .keyNotFound(let key, let context): (path, what) = (context.codingPath + [key], "is missing")
            case .dataCorrupted(let context): (path, what) = (context.codingPath, context.debugDescription)
            @unknown default: (path, what) = ([], "cannot be read")
            }
            let inside = path.dropFirst(depth).map(\.stringValue).joined(separator: ".")
            reason = inside.isEmpty ? "the entry \(what)" : "\(inside) \(what)"
        }
    }
}
