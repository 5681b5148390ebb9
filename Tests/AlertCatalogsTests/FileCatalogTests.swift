import AlertSpec
import Foundation
import Testing

@testable import AlertCatalogs

/// A temporary folder for fixture files, removed with the test that made it.
final class FixtureFolder {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("alertd-catalogs-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    @discardableResult
    func write(_ name: String, _ text: String) throws -> URL {
        let file = url.appendingPathComponent(name)
        try Data(text.utf8).write(to: file)
        return file
    }

    deinit { try? FileManager.default.removeItem(at: url) }
}

/// The dialog of a rendered spec, or a recorded issue.
func dialog(of spec: AlertSpec) throws -> AlertSpec.Dialog {
    guard case .alert(let dialog) = spec.body else {
        Issue.record("\(spec.id) is a \(spec.kind), not an alert")
        throw CatalogError.unknownType(catalog: "", type: spec.id)
    }
    return dialog
}

/// A catalog file in alertd's JSON format (`CatalogFolderTests` loads it too).
let promoJSON = #"""
    {
      "sourceLanguage": "en",
      "alerts": {
        "welcome": {
          "kind": "alert",
          "priority": 700,
          "title": "Welcome, {name}!",
          "message": "Your code: {code}. Enjoy, {name}.",
          "actions": [
            {"id": "redeem", "label": "Redeem {code}", "role": "primary",
             "action": {"type": "openURL", "url": "myapp://redeem/{code}"}},
            {"id": "later", "label": "Later", "role": "cancel"}
          ]
        },
        "saved": {"kind": "hud", "state": "success", "text": "Saved"}
      },
      "examples": {"welcome": {"code": "SPRING24"}}
    }
    """#

private let promoYAML = """
    sourceLanguage: en
    alerts:
      welcome:
        kind: alert
        priority: 700
        title: "Welcome, {name}!"
        message: "Your code: {code}. Enjoy, {name}."
        actions:
          - id: redeem
            label: "Redeem {code}"
            role: primary
            action: {type: openURL, url: "myapp://redeem/{code}"}
          - {id: later, label: Later, role: cancel}
      saved: {kind: hud, state: success, text: Saved}
    examples:
      welcome: {code: SPRING24}
    """

@Suite("File catalogs in alertd's own format")
struct FileCatalogTests {
    let folder: FixtureFolder

    init() throws { folder = try FixtureFolder() }

    @Test("a JSON catalog renders its template with the placeholders filled, values kept literal")
    func jsonRenders() throws {
        // Given promo.json, whose welcome alert takes {name} and {code}
        let catalog = try FileCatalog(contentsOf: try folder.write("promo.json", promoJSON))

        // When it is rendered with values holding a placeholder, quotes and a format specifier
        let name = #"Ana "{code}" %@ \n"#
        let spec = try catalog.render(
            type: "welcome", parameters: ["name": .string(name), "code": .string("X1")], locale: "en")

        // Then every string got its values, inserted as given and never read again
        let dialog = try dialog(of: spec)
        #expect(catalog.name == "promo")
        #expect(catalog.format == .alertd)
        #expect(spec.id == "promo/welcome")
        #expect(spec.priority == 700)
        #expect(dialog.title == "Welcome, \(name)!")
        #expect(dialog.message == "Your code: X1. Enjoy, \(name).")
        #expect(dialog.actions.map(\.label) == ["Redeem X1", "Later"])
        #expect(dialog.actions.first?.action == .openURL(url: "myapp://redeem/X1"))
        #expect(dialog.actions.map(\.role) == [.primary, .cancel])
    }

    @Test("a YAML catalog loads into the same alerts as its JSON twin")
    func yamlRenders() throws {
        // Given the same catalog written as JSON and as YAML
        let json = try FileCatalog(contentsOf: try folder.write("promo.json", promoJSON))
        let yaml = try FileCatalog(contentsOf: try folder.write("promo.yaml", promoYAML))
        let parameters: [String: ParameterValue] = ["name": .string("Li"), "code": .string("Z9")]

        // When both render the welcome alert
        let fromJSON = try json.render(type: "welcome", parameters: parameters, locale: "en")
        let fromYAML = try yaml.render(type: "welcome", parameters: parameters, locale: "en")

        // Then they agree, field for field
        #expect(fromYAML == fromJSON)
        #expect(yaml.entries == json.entries)
        #expect(try dialog(of: fromYAML).title == "Welcome, Li!")
    }

    @Test("YAML words such as No and Off stay words, dates stay text")
    func yamlCoreSchema() throws {
        // Given a .yml catalog in French whose labels YAML 1.1 would read as booleans
        let catalog = try FileCatalog(contentsOf: try folder.write("quiz.yml", """
            sourceLanguage: fr
            alerts:
              ask:
                kind: alert
                title: 2024-05-01
                actions:
                  - {id: no, label: No, role: cancel}
                  - {id: off, label: Off}
            """))

        // When it is rendered
        let dialog = try dialog(of: try catalog.render(type: "ask", parameters: [:], locale: "fr"))

        // Then the words are as written and the locale is the source language
        #expect(dialog.title == "2024-05-01")
        #expect(dialog.actions.map(\.label) == ["No", "Off"])
        #expect(catalog.locales == ["fr"])
    }

    @Test("a missing parameter and an unknown one are refused by name")
    func parameterErrors() throws {
        let catalog = try FileCatalog(contentsOf: try folder.write("promo.json", promoJSON))

        // When the code is left out, or a parameter the template does not take is added
        // Then each is a ParameterError naming the parameter
        #expect(throws: ParameterError.missing("code", .string)) {
            try catalog.render(type: "welcome", parameters: ["name": .string("Ana")], locale: "en")
        }
        #expect(throws: ParameterError.unknown("coupon")) {
            try catalog.render(
                type: "welcome", parameters: ["name": .string("Ana"), "code": .string("1"), "coupon": .string("x")],
                locale: "en")
        }
        #expect(throws: CatalogError.unknownType(catalog: "promo", type: "nope")) {
            try catalog.render(type: "nope", parameters: [:], locale: "en")
        }
    }

    @Test("the listing names each alert's kind, its parameters and a working example")
    func listing() throws {
        // Given promo.json with an example for code but none for name
        let catalog = try FileCatalog(contentsOf: try folder.write("promo.json", promoJSON))

        // Then the entries are sorted, parameters are required strings, and examples render
        #expect(catalog.entries.map(\.type) == ["saved", "welcome"])
        #expect(catalog.entries.map(\.kind) == [.hud, .alert])
        let welcome = try #require(catalog.entry("welcome"))
        #expect(
            welcome.parameters == [
                ParameterInfo(name: "code", type: .string, required: true),
                ParameterInfo(name: "name", type: .string, required: true),
            ])
        #expect(welcome.example == ["code": .string("SPRING24"), "name": .string("name")])
        #expect(catalog.entry("saved")?.parameters == [])
        let spec = try catalog.render(type: "welcome", parameters: welcome.example, locale: "en")
        #expect(try dialog(of: spec).message == "Your code: SPRING24. Enjoy, name.")
    }

    @Test("placeholders are {identifier}; other braces are text", arguments: [
        ("{a} and {b_1}", ["a", "b_1"]),
        ("{1x} {} {a b} {-}", []),
        ("{{c}}", ["c"]),
        ("€{ü}{_x}", ["_x"]),
    ])
    func placeholderSyntax(text: String, names: [String]) {
        #expect(SpecTemplate.placeholders(in: text) == names)
    }

    @Test("a file name that cannot name a catalog is refused, naming the file")
    func badFileName() throws {
        // Given a valid catalog in a file whose name has a dot and a space
        let url = try folder.write("spring promo.v2.json", promoJSON)

        // When it is loaded
        let error = #expect(throws: CatalogFileError.self) { try FileCatalog(contentsOf: url) }

        // Then the one problem names the file
        #expect(error?.problems.map(\.code) == ["invalid-file-name"])
        #expect(error?.problems.first?.file == url.path)
        #expect(error?.description.hasPrefix("\(url.path): -: -: \"spring promo.v2\" cannot name a catalog") == true)
    }

    @Test("a broken catalog file is refused with every problem at its entry and pointer")
    func brokenTemplates() throws {
        // Given a file with an unknown member, a template without text, and one whose example
        // value makes a URL without a scheme
        let url = try folder.write("broken.json", #"""
            {"alerts": {
               "noText": {"kind": "alert", "actions": [{"id": "ok", "label": "OK"}]},
               "link": {"kind": "alert", "title": "Go", "actions": [
                 {"id": "go", "label": "Go", "action": {"type": "openURL", "url": "{target}"}}]}},
             "extra": true}
            """#)

        // When it is loaded
        let error = #expect(throws: CatalogFileError.self) { try FileCatalog(contentsOf: url) }

        // Then each problem is reported with its entry and pointer
        let found = (error?.problems ?? []).map { "\($0.entry) \($0.pointer) \($0.code)" }
        #expect(
            found == [
                "- /extra unknown-field",
                "link /actions/0/action/url invalid-url",
                "noText /title missing-text",
            ])
        #expect(error?.description.contains("\(url.path): noText: /title: An alert needs a title") == true)
    }

    @Test("a file that is neither format says so")
    func unknownFormat() throws {
        let url = try folder.write("odd.json", #"{"hello": "world"}"#)
        let error = #expect(throws: CatalogFileError.self) { try FileCatalog(contentsOf: url) }
        #expect(error?.problems.map(\.code) == ["unknown-format"])
    }

    @Test("malformed JSON is refused with where the parser stopped")
    func malformed() throws {
        let url = try folder.write("bad.json", #"{"alerts": {"x": }"#)
        let error = #expect(throws: CatalogFileError.self) { try FileCatalog(contentsOf: url) }
        #expect(error?.problems.map(\.code) == ["malformed-file"])
        #expect(error?.problems.first?.message.hasPrefix("The file is not valid JSON") == true)
        #expect(error?.problems.first?.message.contains("at byte 17") == true, "\(String(describing: error))")
    }

    @Test("a JSON file that gives a member twice is refused; a UTF-8 byte order mark is not")
    func strictJSON() throws {
        // Given the same catalog with a member given twice, and with a byte order mark
        let twice = promoJSON.replacingOccurrences(of: #""kind": "alert","#, with: #""kind": "alert", "kind": "alert","#)
        #expect(twice != promoJSON)
        let repeated = try folder.write("twice.json", twice)
        let marked = try folder.write("marked.json", "\u{FEFF}" + promoJSON)
        // Then the first is malformed, and the second reads as the catalog does without it
        let error = #expect(throws: CatalogFileError.self) { try FileCatalog(contentsOf: repeated) }
        #expect(error?.problems.map(\.code) == ["malformed-file"])
        #expect(error?.problems.first?.message.contains("\"kind\" twice") == true, "\(String(describing: error))")
        let plain = try FileCatalog(contentsOf: try folder.write("promo.json", promoJSON))
        #expect(try FileCatalog(contentsOf: marked).entries == plain.entries)
        #expect(!plain.entries.isEmpty)
    }
}
