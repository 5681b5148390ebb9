extension StringCatalogLocalizer {
    /// A table for each pseudo-locale: every source-language unit transformed, but for entries
    /// marked `shouldTranslate: false`, which show their source value there as in every locale.
    /// Plurals and numbers follow the source language the texts are made from.
    static func pseudoTables(of catalog: StringCatalog, source: [String: Unit]) -> [LocaleTable] {
        let translatable = source.filter { catalog.strings[$0.key]?.shouldTranslate != false }
        return PseudoLocale.allCases.map { pseudo in
            LocaleTable(locale: pseudo.tag, units: translatable.mapValues { $0.pseudo(pseudo) }, rules: catalog.sourceLanguage)
        }
    }
}

extension StringCatalogLocalizer.Unit {
    /// The unit with each device's value and plural forms transformed whole, and each
    /// substitution's forms as fragments of them (they are put inside a whole).
    func pseudo(_ pseudo: PseudoLocale) -> Self {
        var substitutions = self.substitutions
        for (name, substitution) in substitutions {
            substitutions[name]?.plural = substitution.plural.mapValues(pseudo.transformFragment)
        }
        let devices = devices.map { device, form in
            var form = form
            form.value = form.value.map(pseudo.transform)
            form.plural = form.plural.mapValues(pseudo.transform)
            return (device, form.prepared(with: substitutions))
        }
        return Self(devices: devices, substitutions: substitutions)
    }

    private init(devices: [(device: Device, form: StringCatalogLocalizer.Form)], substitutions: [String: Substitution]) {
        self.devices = devices
        self.substitutions = substitutions
    }
}
