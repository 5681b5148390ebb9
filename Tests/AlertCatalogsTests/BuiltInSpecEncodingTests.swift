import Testing

@testable import AlertCatalogs
@testable import AlertSpec

@Suite("Built-in specs encode the same through their writers as through Encodable")
struct BuiltInSpecEncodingTests {
    private func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    @Test("every built-in alert in every locale: the same bytes both ways")
    func everyAlertEveryLocale() throws {
        // Given every built-in catalog
        let registry = try CatalogRegistry.builtIn()
        var compared = 0
        var kinds = Set<AlertKind>()
        for catalog in registry.catalogs {
            for entry in catalog.entries {
                for locale in catalog.locales {
                    // When each alert is drafted and rendered with its example, and both are encoded both ways
                    let draft = try catalog.draft(type: entry.type, parameters: entry.example, locale: locale)
                    let spec = try catalog.render(type: entry.type, parameters: entry.example, locale: locale)
                    // Then the writers give exactly the Encodable forms' bytes
                    let name = "\(catalog.name)/\(entry.type) in \(locale)"
                    #expect(try text(OrderedJSONEncoder().encode(spec)) == text(OrderedJSONEncoder().encodeStreaming(spec)), "\(name)")
                    #expect(try text(OrderedJSONEncoder().encode(draft)) == text(OrderedJSONEncoder().encodeStreaming(draft)), "\(name)")
                    compared += 1
                    kinds.insert(spec.kind)
                }
            }
        }
        #expect(compared > 100)
        #expect(kinds == Set(AlertKind.allCases))
    }
}
