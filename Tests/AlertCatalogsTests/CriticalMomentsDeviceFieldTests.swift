import AlertSpec
import Foundation
import Testing

@testable import AlertCatalogs

/// A named action's `condition` and `fallback`, which Critical Moments' SDK evaluates on the
/// device and alertd cannot.
@Suite("Critical Moments alert configs: condition and fallback")
struct CriticalMomentsDeviceFieldTests {
    let folder: FixtureFolder

    init() throws { folder = try FixtureFolder() }

    private let config = #"""
        {
          "configVersion": "v1",
          "actions": {
            "namedActions": {
              "askReview": {
                "actionType": "alert",
                "condition": "eventCount('photo_saved') >= 3 && !has_watch",
                "fallback": "thanks",
                "actionData": {"title": "Enjoying the app?", "showCancelButton": true, "okButtonActionName": "openReview"}
              },
              "thanks": {"actionType": "alert", "actionData": {"message": "Thank you!"}},
              "promo": {"actionType": "alert", "fallback": "openReview", "actionData": {"title": "New this week"}},
              "openReview": {"actionType": "review_prompt"}
            }
          }
        }
        """#

    @Test("a condition is kept as a warning that names the action and says the backend decides when")
    func conditionWarns() throws {
        // Given a config whose askReview action has a condition
        let catalog = try FileCatalog(contentsOf: try folder.write("moments.json", config))

        // Then askReview is served, and the warning says who evaluates the condition
        #expect(catalog.entries.map(\.type) == ["askReview", "promo", "thanks"])
        let warning = try #require(catalog.warnings.first { $0.code == "device-condition" })
        #expect(warning.entry == "askReview")
        #expect(warning.pointer == "/condition")
        #expect(
            warning.message
                == "The condition \"eventCount('photo_saved') >= 3 && !has_watch\" of \"askReview\" is evaluated on the device by"
                + " Critical Moments; alertd serves the alert whenever it is enqueued: the backend decides when.")
        // And no field of it is called unknown
        #expect(!catalog.warnings.contains { $0.code == "unknown-field" })
    }

    @Test("a fallback to an action of the file is reported as the device's, for an alert and for another action")
    func fallbackWarns() throws {
        let catalog = try FileCatalog(contentsOf: try folder.write("moments.json", config))
        let fallbacks = catalog.warnings.filter { $0.code == "device-fallback" }
        #expect(fallbacks.map { "\($0.entry) \($0.pointer)" } == ["askReview /fallback", "promo /fallback"])
        #expect(
            fallbacks.first?.message
                == "\"askReview\" falls back to \"thanks\" on the device, when Critical Moments cannot perform it; alertd always"
                + " serves \"askReview\" as it is, and alertd serves \"thanks\" only when it is enqueued itself.")
        #expect(fallbacks.last?.message.hasSuffix("alertd does not serve \"openReview\" (a review_prompt action, not an alert).") == true)
    }

    @Test("a fallback that names no action of the file is an error naming it")
    func unknownFallback() throws {
        // Given an action whose fallback names nothing, as Critical Moments' own invalid fixture
        let url = try folder.write("broken.json", #"""
            {"configVersion": "v1", "actions": {"namedActions": {
              "action1": {"actionType": "alert", "actionData": {"title": "For real?"}},
              "action2": {"actionType": "alert", "fallback": "missing", "actionData": {"title": "For real?"}}
            }}}
            """#)

        // When it is loaded
        let error = #expect(throws: CatalogFileError.self) { try FileCatalog(contentsOf: url) }

        // Then the one error names the action and the missing fallback
        #expect(error?.problems.map { "\($0.entry) \($0.pointer) \($0.code)" } == ["action2 /fallback unknown-fallback"])
        #expect(error?.problems.first?.message == "The fallback \"missing\" of \"action2\" names no action of this file.")
    }

    @Test("condition and fallback written inline, beside the alert's fields, are read the same")
    func inlineFields() throws {
        let catalog = try FileCatalog(contentsOf: try folder.write("inline.yaml", """
            nudge:
              actionType: alert
              condition: app_install_date < now() - 7 * 24 * 60 * 60 * 1000
              fallback: nudge2
              title: Try the new editor?
            nudge2:
              actionType: alert
              title: The editor is new
            """))
        #expect(
            catalog.warnings.map { "\($0.entry) \($0.pointer) \($0.code)" } == [
                "nudge /condition device-condition", "nudge /fallback device-fallback",
            ])
    }
}
