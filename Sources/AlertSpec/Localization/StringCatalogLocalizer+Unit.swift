extension StringCatalogLocalizer {
    /// One key's value in one locale as Xcode builds it: by device (`other` for the devices not
    /// named), each a plain value or plural forms, with the substitutions its strings use.
    struct Unit: Sendable {
        /// Without device variations, one: `other`.
        let devices: [(device: Device, form: Form)]
        let substitutions: [String: Substitution]

        struct Substitution: Sendable {
            /// 0-based; nil when the token's place among the placeholders decides.
            var position: Int?
            var specifier: String
            var plural: [PluralCategory: String]
        }

        /// The unit of a localization, keeping the string units `accepting` takes; nil when what
        /// is left cannot be shown (no value, a plural without `other`, a device variation
        /// without any usable value, a substitution token with no usable substitution).
        init?(_ localization: StringCatalog.Localization, accepting: (StringCatalog.StringUnit) -> Bool) {
            var substitutions: [String: Substitution] = [:]
            for (name, substitution) in localization.substitutions ?? [:] {
                let plural = Self.pluralForms(substitution.variations?.plural, accepting)
                guard plural[.other] != nil else { continue }
                substitutions[name] = Substitution(
                    position: substitution.argNum.map { $0 - 1 }, specifier: substitution.formatSpecifier ?? "lld", plural: plural)
            }
            var devices: [(Device, Form)] = []
            if let byDevice = localization.variations?.device {
                for (name, node) in byDevice.sorted(by: { $0.key < $1.key }) {
                    guard let device = Device(rawValue: name), let form = Form(node, accepting) else { continue }
                    devices.append((device, form))
                }
            } else if let form = Form(localization, accepting) {
                devices = [(.other, form)]
            }
            guard !devices.isEmpty else { return nil }
            let patterns = devices.flatMap { $0.1.patterns.map(\.1) }
            let tokens = patterns.flatMap { SubstitutionToken.all(in: $0).map(\.name) }
            guard tokens.allSatisfy({ substitutions[$0] != nil }) else { return nil }
            self.substitutions = substitutions
            self.devices = devices.map { device, form in (device, form.prepared(with: substitutions)) }
        }

        static func pluralForms(
            _ variations: [String: StringCatalog.Localization]?, _ accepting: (StringCatalog.StringUnit) -> Bool
        ) -> [PluralCategory: String] {
            var forms: [PluralCategory: String] = [:]
            for (name, node) in variations ?? [:] {
                if let category = PluralCategory(rawValue: name), let unit = node.stringUnit, accepting(unit) {
                    forms[category] = unit.value
                }
            }
            return forms
        }

        var variesByDevice: Bool { devices.count > 1 || devices.first?.device != .other }

        /// The form the device sees: its own variation, else `other`.
        func form(for device: Device) -> Form? {
            devices.first { $0.device == device }?.form ?? devices.first { $0.device == .other }?.form
        }

        /// The pattern the others are compared with: the `other` device's main pattern.
        var main: String { (form(for: .other) ?? devices[0].form).main }

        /// The words for `arguments` on `device`, in `table`'s locale; nil when the unit has no
        /// variation for the device and no `other`.
        func string(_ arguments: [FormatArgument], device: Device, in table: LocaleTable) -> String? {
            form(for: device)?.string(arguments, substitutions: substitutions, in: table)
        }

        /// Argument position → kind of placeholder (`@` text, `d` integer, `f` number).
        func signature(of pattern: String) -> [Int: Character] {
            Self.signature(of: SubstitutionToken.expand(pattern, substitutions, arguments: nil, language: "en"))
        }

        static func signature(of pattern: String) -> [Int: Character] {
            var signature: [Int: Character] = [:]
            for placeholder in TextFormatter.placeholders(in: pattern) {
                signature[placeholder.position] = "diu".contains(placeholder.conversion) ? "d" : placeholder.conversion
            }
            return signature
        }

        /// Why this translation does not fit a source with `expected` placeholders: a placeholder
        /// the source lacks or of another kind. Leaving one out is allowed (a plural form need
        /// not repeat its number; a language may not need a word the source has).
        func mismatch(with expected: [Int: Character]) -> String? {
            for (device, form) in devices {
                for (category, pattern) in form.patterns {
                    let found = signature(of: pattern)
                    guard found.contains(where: { expected[$0.key] != $0.value }) else { continue }
                    let variation = [devices.count > 1 || device != .other ? device.rawValue : nil, category?.rawValue]
                        .compactMap { $0 }.joined(separator: ", ")
                    return (variation.isEmpty ? "" : "(\(variation)) ")
                        + "placeholders \(Self.describe(found)) do not match the source's \(Self.describe(expected))"
                }
            }
            return nil
        }

        private static func describe(_ signature: [Int: Character]) -> String {
            signature.isEmpty ? "(none)" : signature.sorted { $0.key < $1.key }.map { "%\($0.key + 1)$\($0.value)" }.joined(separator: " ")
        }
    }

    /// One device's value: a plain value or plural forms, parsed when nothing in it depends on
    /// the arguments beyond the plural form.
    struct Form: Sendable {
        var value: String?
        var plural: [PluralCategory: String]
        /// The argument position plural forms are chosen by: the first numeric placeholder.
        private(set) var mainSelector: Int?
        /// The patterns parsed, when there are no substitutions to expand per call.
        private(set) var parsed: ParsedForms?

        init?(_ node: StringCatalog.Localization, _ accepting: (StringCatalog.StringUnit) -> Bool) {
            if let variations = node.variations?.plural {
                plural = Unit.pluralForms(variations, accepting)
                guard plural[.other] != nil else { return nil }
            } else if let unit = node.stringUnit, accepting(unit) {
                value = unit.value
                plural = [:]
            } else {
                return nil
            }
        }

        /// The form with its selector found and, without substitution tokens, its patterns parsed.
        func prepared(with substitutions: [String: Unit.Substitution]) -> Form {
            var form = self
            let hasTokens = patterns.contains { !SubstitutionToken.all(in: $0.1).isEmpty }
            if !plural.isEmpty {
                let expanded = SubstitutionToken.expand(main, substitutions, arguments: nil, language: "en")
                form.mainSelector = TextFormatter.placeholders(in: expanded).first { "difu".contains($0.conversion) }?.position
            }
            form.parsed = hasTokens ? nil : ParsedForms(self)
            return form
        }

        /// The pattern the others are compared with: the `other` plural form, or the value.
        var main: String { plural[.other] ?? value ?? "" }

        /// Every pattern, with its plural form (nil for the plain value).
        var patterns: [(PluralCategory?, String)] {
            plural.isEmpty ? [(nil, value ?? "")] : plural.sorted { $0.key.ordinal < $1.key.ordinal }.map { ($0.key, $0.value) }
        }

        func string(_ arguments: [FormatArgument], substitutions: [String: Unit.Substitution], in table: LocaleTable) -> String {
            if let parsed {
                var pattern = parsed.plain
                if let position = mainSelector, position < arguments.count {
                    let form = PluralRules.form(of: arguments[position], language: table.language, hasZero: parsed.plural[PluralCategory.zero.ordinal] != nil)
                    pattern = parsed.plural[form.ordinal] ?? parsed.main
                }
                return pattern.format(arguments, table.symbols)
            }
            var pattern = value ?? main
            if let position = mainSelector, position < arguments.count {
                pattern = plural[PluralRules.form(of: arguments[position], language: table.language, hasZero: plural[.zero] != nil)] ?? main
            }
            let expanded = SubstitutionToken.expand(pattern, substitutions, arguments: arguments, language: table.language)
            return FormatPattern(expanded).format(arguments, table.symbols)
        }
    }
}
