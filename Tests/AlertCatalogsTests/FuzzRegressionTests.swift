import AlertSpec
import Foundation
import Testing

@testable import AlertCatalogs

/// Catalog files the fuzzer (Fuzz/, target FuzzCriticalMoments) crashed the loader with, each
/// kept in Fuzz/Corpus/FuzzCriticalMoments too. Each must now be refused with its problems.
@Suite("Fuzzing regressions: catalog files")
struct CatalogFileFuzzRegressionTests {
    let folder: FixtureFolder

    init() throws { folder = try FixtureFolder() }

    /// The problems loading `text` as `name` reports; a file that loads is an issue.
    private func problems(_ name: String, _ text: String) throws -> [CatalogProblem] {
        let url = try folder.write(name, text)
        do {
            _ = try FileCatalog(contentsOf: url)
            Issue.record("\(name) loaded")
            return []
        } catch let error as CatalogFileError {
            return error.problems
        }
    }

    @Test("a YAML member name that is a mapping or a list is refused, not a trap in Yams", arguments: [
        // crash-yaml-mapping-as-key.yaml: what the fuzzer's find minimized to.
        ("{{}}", ""),
        ("? [a, b]\n: c\n", ""),
        ("alerts:\n  welcome:\n    kind: alert\n    ? {title: x}\n    : y\n", "/alerts/welcome"),
        ("actions:\n  namedActions:\n    - ? [x]\n      : y\n", "/actions/namedActions/0"),
    ])
    func nonTextMemberName(yaml: String, pointer: String) throws {
        // When the file is loaded
        let problems = try problems("fuzz.yaml", yaml)

        // Then it is refused with one problem at the mapping with the bad name
        #expect(problems.map(\.code) == ["invalid-value"])
        #expect(problems.first?.pointer == pointer)
        #expect(problems.first?.message == "A member name must be text, not a list or a mapping.")
    }

    @Test("a YAML file whose aliases stand for 10^8 values is refused, not expanded")
    func billionLaughs() throws {
        // Given eight lines of anchors, each list repeating the one before ten times (10^8 values)
        var lines = [#"a: &a ["x", "x", "x", "x", "x", "x", "x", "x", "x", "x"]"#]
        for (previous, name) in zip("abcdefg", "bcdefgh") {
            lines.append("\(name): &\(name) [" + Array(repeating: "*\(previous)", count: 10).joined(separator: ", ") + "]")
        }

        // When the file is loaded
        let problems = try problems("laughs.yaml", lines.joined(separator: "\n"))

        // Then it is refused at once
        #expect(problems.map(\.code) == ["invalid-value"])
        #expect(problems.first?.message.contains("more than 100000 values") == true)
    }

    @Test("a YAML member name that reads as a boolean or null is still text")
    func scalarMemberNames() throws {
        // Given a catalog whose examples are keyed by names YAML reads as a boolean and as null
        let yaml = """
            alerts:
              welcome: {kind: alert, title: "Hi {true} {null}", actions: [{id: ok, label: OK}]}
            examples:
              welcome: {true: yes, null: none}
            """
        // When it is loaded, then both are parameter names, and the examples fill them
        let catalog = try FileCatalog(contentsOf: try folder.write("names.yaml", yaml))
        #expect(catalog.entries.first?.example == ["true": .string("yes"), "null": .string("none")])
    }
}
