import AlertSpec
import Foundation
import Testing

@testable import AlertCatalogs

/// Catalog files share the spec reader: the same null rule and the same `SpecLimits`.
@Suite("Catalog files: null members and spec limits")
struct CatalogLimitsTests {
    let folder: FixtureFolder

    init() throws {
        folder = try FixtureFolder()
    }

    @Test("a template member given as null is left out")
    func nullLeftOut() throws {
        let url = try folder.write("plain.yaml", """
            alerts:
              hello: {kind: alert, title: Hi, message: null, style: ~, actions: [{id: ok, label: OK, role: null}]}
            """)
        let catalog = try FileCatalog(contentsOf: url)
        let dialog = try dialog(of: try catalog.render(type: "hello", parameters: [:], locale: "en"))
        #expect(dialog.message == nil)
        #expect(dialog.style == .dialog)
        #expect(dialog.actions.first?.role == .default)
    }

    @Test("a template past a list limit or the size limit is refused at its entry and pointer")
    func limits() throws {
        // Given one alert with 17 buttons and one whose text makes it larger than 64 KiB
        let buttons = (0...SpecLimits.actions).map { "{id: b\($0), label: B}" }.joined(separator: ", ")
        let long = String(repeating: "x", count: SpecLimits.encodedSpec)
        let url = try folder.write("big.yaml", """
            alerts:
              many: {kind: alert, title: Hi, actions: [\(buttons)]}
              huge: {kind: hud, state: success, text: \(long)}
            """)

        // When it is loaded
        let error = #expect(throws: CatalogFileError.self) { try FileCatalog(contentsOf: url) }

        // Then both are refused, each at its entry
        let found = (error?.problems ?? []).map { "\($0.entry) \($0.code)" }
        #expect(found == ["huge spec-too-large", "many too-many-actions"], "\(found)")
        #expect(error?.problems.last?.pointer == "/actions")
    }
}
