import AlertSpec
import Foundation
import Testing

@testable import AlertCatalogs

/// A catalog in code whose one alert declares a rule no reader would accept.
private enum OverPacedAlert: AlertTarget {
    case nagging

    var title: LocalizedText? { LocalizedText("t", default: "Title") }
    var actions: [AlertAction] { [.ok()] }
    var pacing: Pacing { Pacing(limits: [.init(count: 0, period: .days(1))]) }
    static var samples: [OverPacedAlert] { [.nagging] }
}

/// Pacing declared with the alert: the built-in catalogs' rules, a file catalog's `pacing:`
/// (listed with the alert, and every bad value a problem at its file, alert and member), and a
/// rule in code checked when its catalog loads.
@Suite("Pacing declared in catalogs")
struct CatalogPacingTests {
    let folder: FixtureFolder

    init() throws { folder = try FixtureFolder() }

    @Test("the built-in catalogs declare pacing where it fits, and no rule elsewhere")
    func builtIns() throws {
        let registry = try CatalogRegistry.builtIn()
        let app = try #require(registry["app"])
        let monthly = Pacing(limits: [.init(count: 1, period: .days(30))], whenCapped: .drop)
        #expect(app.entry("pushPermission")?.pacing == monthly)
        #expect(app.entry("locationPermission")?.pacing == monthly)
        #expect(app.entry("newMessages")?.pacing == Pacing(minGap: .init(duration: .seconds(60)), whenCapped: .defer))
        let paced: Set = ["pushPermission", "locationPermission", "newMessages"]
        for entry in app.entries where !paced.contains(entry.type) { #expect(entry.pacing.isNone, "\(entry.type)") }
        let onboarding = try #require(registry["onboarding"])
        #expect(onboarding.entry("setup")?.pacing == Pacing(once: .init(scope: .session), whenCapped: .drop))
    }

    @Test("an enum catalog whose rule is out of range is refused, naming the alert")
    func ruleInCodeChecked() {
        let error = #expect(throws: CatalogError.self) {
            try EnumCatalog(name: "paced", OverPacedAlert.self, localizer: SourceLocalizer())
        }
        #expect(error?.problems == ["nagging: pacing: a limit's count is 0, not 1 to \(Pacing.maxCount)"])
    }

    @Test("a file alert's pacing is read, kept out of its spec, and listed with it", arguments: ["json", "yaml"])
    func fileDeclares(format: String) throws {
        let json = #"""
            {"alerts": {
              "promo": {"kind": "alert", "title": "Spring sale", "actions": [{"id": "ok", "label": "OK"}],
                        "pacing": {"once": {"scope": "user"}, "whenCapped": "drop"}},
              "plain": {"kind": "hud", "state": "success", "text": "Saved"}}}
            """#
        let yaml = """
            alerts:
              promo:
                kind: alert
                title: Spring sale
                actions: [{id: ok, label: OK}]
                pacing:
                  once: {scope: user}
                  whenCapped: drop
              plain: {kind: hud, state: success, text: Saved}
            """
        let catalog = try FileCatalog(contentsOf: try folder.write("spring.\(format)", format == "json" ? json : yaml))
        #expect(catalog.entry("promo")?.pacing == Pacing(once: .init(scope: .user), whenCapped: .drop))
        #expect(catalog.entry("plain")?.pacing.isNone == true)
        // The rule is no part of the spec: it renders as any alert does
        #expect(try catalog.render(type: "promo", parameters: [:], locale: "en").id == "spring/promo")
        // Listed with the alert, and only there
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let listed = String(decoding: try encoder.encode(catalog.entries), as: UTF8.self)
        #expect(listed.contains(#""pacing":{"once":{"scope":"user"},"whenCapped":"drop"}"#), "\(listed)")
        #expect(listed.components(separatedBy: "pacing").count == 2, "\(listed)")
    }

    @Test("every bad value of a file's pacing is a problem naming the file, the alert and the member")
    func fileProblems() throws {
        let url = try folder.write("paced.json", #"""
            {"alerts": {
              "a": {"kind": "hud", "state": "success", "text": "A",
                    "pacing": {"limits": [{"count": 0, "period": "0d", "scope": "device"}], "minGap": {"duration": "soon"},
                               "whenCapped": "later", "every": "day"}},
              "b": {"kind": "hud", "state": "success", "text": "B", "pacing": []}}}
            """#)
        let error = #expect(throws: CatalogFileError.self) { try FileCatalog(contentsOf: url) }
        let found = (error?.problems ?? []).map { "\($0.entry) \($0.pointer) \($0.code)" }
        #expect(
            found.sorted() == [
                "a /pacing/every unknown-field",
                "a /pacing/limits/0/count out-of-range",
                "a /pacing/limits/0/period invalid-value",
                "a /pacing/limits/0/scope invalid-value",
                "a /pacing/minGap/duration invalid-value",
                "a /pacing/whenCapped invalid-value",
                "b /pacing invalid-type",
            ], "\(found)")
        #expect(error?.problems.allSatisfy { $0.file == url.path } == true)
        #expect(error?.description.contains("\(url.path): a: /pacing/limits/0/count: count is a whole number") == true, "\(String(describing: error))")
    }
}
