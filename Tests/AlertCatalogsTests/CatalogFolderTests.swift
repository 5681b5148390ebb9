import AlertSpec
import Foundation
import Testing

@testable import AlertCatalogs

@Suite("Loading a folder of catalog files")
struct CatalogFolderTests {
    let folder: FixtureFolder

    init() throws { folder = try FixtureFolder() }

    @Test("every .json, .yaml and .yml file is a catalog; next actions reach other files and the built-ins")
    func loadsFolder() throws {
        // Given three catalogs, a README and a hidden editor file
        try folder.write("promo.json", promoJSON)
        try folder.write("flow.yaml", """
            alerts:
              start:
                kind: alert
                title: Start
                actions:
                  - {id: go, label: Go, action: {type: next, alert: promo/welcome, params: {name: "{who}", code: A1}}}
                  - {id: exit, label: Exit, action: {type: next, alert: app/questionExit}}
            """)
        try folder.write("tiny.yml", "alerts: {done: {kind: hud, state: success}}")
        try folder.write("README.md", "not a catalog")
        try folder.write(".flow.yaml.swp", "junk")
        let builtIn = try CatalogRegistry.builtInCatalogs()

        // When the folder is loaded and joined with the built-in catalogs
        let catalogs = try CatalogFolder.load(folder.url, alongside: builtIn)
        let registry = try CatalogRegistry(builtIn + catalogs)

        // Then the registry serves all of them
        #expect(catalogs.map(\.name) == ["flow", "promo", "tiny"])
        #expect(registry.catalogs.map(\.name) == ["app", "onboarding", "flow", "promo", "tiny"])
        let start = try registry.render(catalog: "flow", type: "start", parameters: ["who": .string("Bo")], locale: nil)
        #expect(
            try dialog(of: start).actions.first?.action
                == .next(alert: "promo/welcome", params: ["name": .string("Bo"), "code": .string("A1")]))
    }

    @Test("a clash with a built-in name, and next actions that lead nowhere, are refused together")
    func crossFileProblems() throws {
        // Given app.json (a built-in name) and a file whose actions lead to a missing alert and
        // to an alert without the parameters it needs
        let app = try folder.write("app.json", #"{"alerts": {"x": {"kind": "hud", "state": "success"}}}"#)
        let links = try folder.write("links.json", #"""
            {"alerts": {"a": {"kind": "alert", "title": "A", "actions": [
              {"id": "one", "label": "1", "action": {"type": "next", "alert": "nowhere/x"}},
              {"id": "two", "label": "2", "action": {"type": "next", "alert": "app/newMessages"}}]}}}
            """#)

        // When the folder is loaded
        let error = #expect(throws: CatalogFileError.self) {
            try CatalogFolder.load(folder.url, alongside: try CatalogRegistry.builtInCatalogs())
        }

        // Then every problem names its file, entry and pointer
        let found = (error?.problems ?? []).map { "\($0.file) \($0.entry) \($0.pointer) \($0.code)" }
        #expect(
            found == [
                "\(app.path) - - duplicate-catalog",
                "\(links.path) a /actions/0/action/alert unknown-alert",
                "\(links.path) a /actions/1/action/params invalid-next-params",
            ])
    }

    @Test("a catalog named reload is refused: /v1/catalogs/reload is the reload action")
    func reservedName() throws {
        let file = try folder.write("reload.json", #"{"alerts": {"x": {"kind": "hud", "state": "success"}}}"#)
        let error = #expect(throws: CatalogFileError.self) { try CatalogFolder.load(folder.url) }
        #expect(error?.problems.map { "\($0.file) \($0.code)" } == ["\(file.path) reserved-catalog-name"])
    }
}
