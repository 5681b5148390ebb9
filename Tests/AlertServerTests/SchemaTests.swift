import AlertCatalogs
import AlertSpec
import Foundation
import TestExecutors
import Testing
@testable import AlertdTestSupport
@testable import HTTPTestSupport

/// openapi.yaml's spec schemas, checked by a real JSON Schema implementation (Python's
/// `jsonschema`, Draft 2020-12) through `scripts/check_schema.py`: every spec the server renders
/// must pass, and what the server's validator rejects the schema must reject too, at the same
/// JSON pointer.
@Suite("openapi.yaml's spec schemas, checked by a real JSON Schema validator", .ownThread)
struct SchemaTests {
    let registry: CatalogRegistry

    init() throws {
        registry = try CatalogRegistry.builtIn()
    }

    /// Every built-in alert with its example parameters, in every locale of its catalog.
    private func everyBuiltInCase() throws -> [(name: String, spec: AlertSpec, draft: SpecDraft)] {
        var cases: [(name: String, spec: AlertSpec, draft: SpecDraft)] = []
        for catalog in registry.catalogs {
            for entry in catalog.entries {
                for locale in catalog.locales {
                    let draft = try catalog.draft(type: entry.type, parameters: entry.example, locale: locale)
                    let spec = try catalog.render(type: entry.type, parameters: entry.example, locale: locale)
                    cases.append(("\(catalog.name)/\(entry.type)@\(locale)", spec, draft))
                }
            }
        }
        return cases
    }

    @Test("every built-in alert, rendered in every locale, is a valid AlertSpec, and a valid SpecDraft to send back")
    func everyRenderedSpecPasses() async throws {
        // Given every built-in case rendered as the server serves it
        let cases = try everyBuiltInCase()
        #expect(Set(cases.map(\.spec.kind)) == Set(AlertKind.allCases), "the built-in catalogs cover every kind")
        let specs = try cases.map { ($0.name, try OrderedJSONEncoder().encode($0.spec)) }

        for schema in ["AlertSpec", "SpecDraft"] {
            // When the schema checks them
            let outcomes = try await SchemaChecker().check(specs, against: schema)

            // Then every one passes
            #expect(outcomes.count == specs.count)
            for (name, outcome) in outcomes.sorted(by: { $0.key < $1.key }) where !outcome.valid {
                Issue.record("\(name) fails \(schema): \(outcome.summary)")
            }
        }
    }

    @Test("every built-in draft, normalized, is a valid NormalizedSpecDraft (the 200 answer of POST /v1/specs/validate)")
    func everyNormalizedDraftPasses() async throws {
        let drafts = try everyBuiltInCase().map { ($0.name, try OrderedJSONEncoder().encode($0.draft)) }

        let outcomes = try await SchemaChecker().check(drafts, against: "NormalizedSpecDraft")

        #expect(outcomes.count == drafts.count)
        for (name, outcome) in outcomes.sorted(by: { $0.key < $1.key }) where !outcome.valid {
            Issue.record("\(name) fails NormalizedSpecDraft: \(outcome.summary)")
        }
    }

    @Test("what the validator rejects, the schema rejects at the same pointer")
    func invalidSpecsAreRejected() async throws {
        // Given rendered built-in specs, each broken in one way
        var bases: [String: Any] = [:]
        for id in Set(InvalidCase.all.map(\.base)) {
            let parts = id.split(separator: "/").map(String.init)
            let catalog = try #require(registry[parts[0]])
            let entry = try #require(catalog.entry(parts[1]))
            let spec = try catalog.render(type: entry.type, parameters: entry.example, locale: catalog.sourceLanguage)
            bases[id] = try JSONSerialization.jsonObject(with: Data(OrderedJSONEncoder().encode(spec)))
        }
        let broken = try InvalidCase.all.map { invalid in
            (invalid, try invalid.edit.apply(to: try #require(bases[invalid.base])))
        }

        // The server's validator rejects each one at the pointer named
        let validator = SpecValidator(directory: registry)
        for (invalid, tree) in broken {
            let issues: [SpecIssue] =
                switch SpecReader.read(tree: tree) {
                case .success(let draft): validator.validate(draft).errors
                case .failure(let error): error.issues
                }
            #expect(
                issues.contains { $0.pointer == invalid.pointer },
                "\(invalid.name): the validator should report \(invalid.pointer); it reported \(issues)")
        }

        // When the schemas check them, as served specs and as drafts sent to the server
        let specs = try broken.map { invalid, tree in
            (invalid.name, Array(try JSONSerialization.data(withJSONObject: tree, options: [.withoutEscapingSlashes])))
        }
        for schema in ["AlertSpec", "SpecDraft"] {
            let outcomes = try await SchemaChecker().check(specs, against: schema, expectInvalid: true)

            // Then each is rejected, with an error at the same pointer
            #expect(outcomes.count == specs.count)
            for invalid in InvalidCase.all {
                guard let outcome = outcomes[invalid.name] else {
                    Issue.record("\(invalid.name): no outcome from the checker")
                    continue
                }
                #expect(!outcome.valid, "\(invalid.name): accepted by \(schema)")
                #expect(
                    outcome.errors.contains { $0.pointer == invalid.pointer },
                    "\(invalid.name): \(schema) should report \(invalid.pointer); it reported \(outcome.summary)")
            }
        }
    }
}

/// A rendered built-in spec broken in one way the validator refuses, and where both report it.
private struct InvalidCase {
    var name: String
    /// The built-in alert (`catalog/type`) rendered with its example, in its source language.
    var base: String
    var edit: JSONEdit
    /// Where the validator and the schema both report the problem.
    var pointer: String

    static let longLabel = String(repeating: "x", count: SpecLimits.label + 1)

    static var all: [InvalidCase] {
        [
            InvalidCase(
                name: "a colour that is not #RRGGBB or #RRGGBBAA", base: "app/questionExit",
                edit: .set("/presentation/maskColor", "#12345"), pointer: "/presentation/maskColor"),
            InvalidCase(
                name: "a member the model does not have", base: "app/questionExit",
                edit: .set("/actions/0/colour", "#FF0000FF"), pointer: "/actions/0/colour"),
            InvalidCase(
                name: "an unknown kind", base: "app/questionExit", edit: .set("/kind", "popover"), pointer: "/kind"),
            InvalidCase(
                name: "an unknown action type", base: "app/questionExit",
                edit: .set("/actions/1/action", ["type": "vibrate"]), pointer: "/actions/1/action/type"),
            InvalidCase(
                name: "a size ratio of 0", base: "app/welcomeToast",
                edit: .set("/appearance/size/xRatio", 0), pointer: "/appearance/size/xRatio"),
            InvalidCase(
                name: "progress past 1", base: "app/uploadProgress", edit: .set("/progress", 1.5), pointer: "/progress"),
            InvalidCase(
                name: "progress on a success HUD", base: "app/saved", edit: .set("/progress", 0.5), pointer: "/progress"),
            InvalidCase(
                name: "a label that is too long", base: "app/questionExit",
                edit: .set("/actions/1/label", longLabel), pointer: "/actions/1/label"),
            InvalidCase(
                name: "a sheet without its cancel", base: "app/shareSheet", edit: .remove("/cancel"), pointer: "/cancel"),
            InvalidCase(
                name: "a sheet whose cancel is not a cancel", base: "app/shareSheet",
                edit: .set("/cancel/role", "default"), pointer: "/cancel/role"),
            InvalidCase(
                name: "a sheet option that is a cancel", base: "app/shareSheet",
                edit: .set("/options/0/role", "cancel"), pointer: "/options/0/role"),
            InvalidCase(
                name: "an alert whose only button is a cancel", base: "app/questionExit",
                edit: .remove("/actions/1"), pointer: "/actions"),
            InvalidCase(
                name: "an alert with neither title nor message", base: "app/questionExit",
                edit: .all([.remove("/title"), .remove("/message")]), pointer: "/title"),
            InvalidCase(
                name: "a javascript: URL", base: "app/redPacket",
                edit: .set("/actions/1/action/url", "javascript:alert(1)"), pointer: "/actions/1/action/url"),
            InvalidCase(
                name: "an https URL without a host", base: "app/redPacket", edit: .set("/image/url", "https://"),
                pointer: "/image/url"),
            InvalidCase(
                name: "an image with both an asset and a URL", base: "app/redPacket",
                edit: .set("/image/asset", "gift"), pointer: "/image"),
            InvalidCase(
                name: "a toast grid cell 13 wide", base: "app/welcomeToast",
                edit: .set("/content/items/0/size/width", 13), pointer: "/content/items/0/size/width"),
            InvalidCase(
                name: "an empty toast row", base: "app/welcomeToast",
                edit: .set("/content/items/1/items", [Any]()), pointer: "/content/items/1/items"),
            InvalidCase(
                name: "a toast animation to alpha 2", base: "app/welcomeToast",
                edit: .set("/animation/show/0/to/alpha", 2), pointer: "/animation/show/0/to/alpha"),
            InvalidCase(
                name: "a card page without a title", base: "onboarding/setup",
                edit: .set("/pages/0/title", ""), pointer: "/pages/0/title"),
            InvalidCase(
                name: "a next action that is not catalog/type", base: "onboarding/setup",
                edit: .set("/pages/2/alternativeButton/action/alert", "redeemInvite"),
                pointer: "/pages/2/alternativeButton/action/alert"),
            InvalidCase(
                name: "a priority above 1000", base: "app/questionExit", edit: .set("/priority", 1001), pointer: "/priority"),
            InvalidCase(
                name: "more buttons than SpecLimits.actions", base: "app/questionExit",
                edit: .set("/actions", (0...SpecLimits.actions).map { ["id": "b\($0)", "label": "B"] }), pointer: "/actions"),
            InvalidCase(
                name: "more card pages than SpecLimits.pages", base: "onboarding/setup",
                edit: .set("/pages", (0...SpecLimits.pages).map { ["id": "p\($0)", "title": "P"] }), pointer: "/pages"),
        ]
    }
}

/// One change to a JSON tree (as `JSONSerialization` reads it), at a JSON pointer.
private indirect enum JSONEdit {
    case set(String, Any)
    case remove(String)
    case all([JSONEdit])

    struct PathNotFound: Error, CustomStringConvertible {
        var pointer: String
        var description: String { "no value at \(pointer) to edit" }
    }

    func apply(to tree: Any) throws -> Any {
        switch self {
        case .set(let pointer, let value): try Self.edit(tree, Self.tokens(pointer)[...], pointer, value)
        case .remove(let pointer): try Self.edit(tree, Self.tokens(pointer)[...], pointer, nil)
        case .all(let edits): try edits.reduce(tree) { try $1.apply(to: $0) }
        }
    }

    private static func tokens(_ pointer: String) -> [String] {
        pointer.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
            .map { String($0).replacing("~1", with: "/").replacing("~0", with: "~") }
    }

    /// `tree` with the value at `path` replaced by `value`, or removed when `value` is nil.
    private static func edit(_ tree: Any, _ path: ArraySlice<String>, _ pointer: String, _ value: Any?) throws -> Any {
        guard let token = path.first else { return value as Any }
        let rest = path.dropFirst()
        if var object = tree as? [String: Any] {
            if rest.isEmpty {
                object[token] = value
            } else {
                guard let child = object[token] else { throw PathNotFound(pointer: pointer) }
                object[token] = try edit(child, rest, pointer, value)
            }
            return object
        }
        if var array = tree as? [Any], let index = Int(token), array.indices.contains(index) {
            if rest.isEmpty, let value {
                array[index] = value
            } else if rest.isEmpty {
                array.remove(at: index)
            } else {
                array[index] = try edit(array[index], rest, pointer, value)
            }
            return array
        }
        throw PathNotFound(pointer: pointer)
    }
}

/// Runs `scripts/check_schema.py` on specs with the Python that `make test` prepares.
