import AlertSpec
import Foundation
import Testing

@testable import AlertCatalogs

/// A config in Critical Moments' shape: a dialog with OK (leading to another alert) and
/// Cancel, a large alert with destructive and primary custom buttons, and a link action.
private let rateConfig = #"""
    {
      "configVersion": "v1",
      "appId": "io.example.app",
      "actions": {
        "namedActions": {
          "askRating": {
            "actionType": "alert",
            "actionData": {
              "title": "Enjoying the app?",
              "message": "Tell {us} how we are doing.",
              "okButtonActionName": "rateOptions",
              "showCancelButton": true
            }
          },
          "rateOptions": {
            "actionType": "alert",
            "actionData": {
              "title": "Rate us",
              "style": "large",
              "showCancelButton": true,
              "customButtons": [
                {"label": "Delete my data", "actionName": "deleteData", "style": "destructive"},
                {"label": "Rate 5 stars", "actionName": "openReview", "style": "primary"},
                {"label": "Ask me again", "actionName": "askRating"},
                {"label": "Close"}
              ]
            }
          },
          "openReview": {
            "actionType": "link",
            "actionData": {"url": "https://apps.apple.com/app/id123?action=write-review"}
          }
        }
      },
      "triggers": {"namedTriggers": {}}
    }
    """#

@Suite("Critical Moments alert configs")
struct CriticalMomentsTests {
    let folder: FixtureFolder

    init() throws { folder = try FixtureFolder() }

    @Test("a dialog with OK and Cancel: OK is primary and leads to the named alert of the same file")
    func dialogWithOKAndCancel() throws {
        // Given rate.json
        let catalog = try FileCatalog(contentsOf: try folder.write("rate.json", rateConfig))

        // When askRating is rendered
        let spec = try catalog.render(type: "askRating", parameters: [:], locale: "en")

        // Then it is a dialog with the standard OK, then the standard Cancel
        let dialog = try dialog(of: spec)
        #expect(catalog.format == .criticalMoments)
        #expect(spec.id == "rate/askRating")
        #expect(dialog.style == .dialog)
        #expect(dialog.title == "Enjoying the app?")
        #expect(dialog.message == "Tell {us} how we are doing.")
        #expect(dialog.actions.map(\.id) == ["ok", "cancel"])
        #expect(dialog.actions.map(\.label) == [SystemText.ok.text.defaultValue, SystemText.cancel.text.defaultValue])
        #expect(dialog.actions.map(\.role) == [.primary, .cancel])
        #expect(dialog.actions.map(\.action) == [.next(alert: "rate/rateOptions"), .dismiss])

        // And it takes no parameters: braces in a config are text, and a parameter is an error
        #expect(throws: ParameterError.unknown("name")) {
            try catalog.render(type: "askRating", parameters: ["name": .string("Ana")], locale: "en")
        }
    }

    @Test("a large alert: custom buttons first, in order; OK after them takes the primary role, as in the SDK")
    func largeWithCustomButtons() throws {
        // Given rate.json
        let catalog = try FileCatalog(contentsOf: try folder.write("rate.json", rateConfig))

        // When rateOptions is rendered
        let dialog = try dialog(of: try catalog.render(type: "rateOptions", parameters: [:], locale: "en"))

        // Then the custom buttons come first with their styles, then OK and Cancel; OK is the
        // last primary button, so the custom one styled primary is shown as default
        #expect(dialog.style == .large)
        #expect(dialog.message == nil)
        #expect(dialog.actions.map(\.id) == ["custom1", "custom2", "custom3", "custom4", "ok", "cancel"])
        #expect(dialog.actions.map(\.label) == ["Delete my data", "Rate 5 stars", "Ask me again", "Close", "OK", "Cancel"])
        #expect(dialog.actions.map(\.role) == [.destructive, .default, .default, .default, .primary, .cancel])
        // An action name that is an alert of the file is a next action; one that is not (a
        // link, an unknown name) is an event; none dismisses.
        #expect(
            dialog.actions.map(\.action) == [
                .event(name: "deleteData"), .event(name: "openReview"), .next(alert: "rate/askRating"), .dismiss,
                .dismiss, .dismiss,
            ])
    }

    @Test("other action types are skipped with a warning, and the alerts still serve")
    func skipsOtherActions() throws {
        // Given rate.json, which has a link action
        let catalog = try FileCatalog(contentsOf: try folder.write("rate.json", rateConfig))

        // Then only the alerts are listed, and the link is a warning at its actionType
        #expect(catalog.entries.map(\.type) == ["askRating", "rateOptions"])
        #expect(catalog.entries.allSatisfy { $0.kind == .alert && $0.parameters.isEmpty })
        #expect(
            catalog.warnings.map { "\($0.entry) \($0.pointer) \($0.code)" } == [
                "openReview /actionType skipped-action", "rateOptions /actionData/customButtons/1/style primary-demoted",
            ])

        // And the catalog joins a registry, its next actions resolved
        let registry = try CatalogRegistry(try CatalogRegistry.builtInCatalogs() + [catalog])
        #expect(registry["rate"] != nil)
    }

    @Test("named actions at the top level, fields inline, in YAML")
    func topLevelInlineYAML() throws {
        // Given actions at the top level with their fields next to actionType, a button
        // labelled No, a field Critical Moments alerts do not have, and a non-action member
        let catalog = try FileCatalog(contentsOf: try folder.write("quick.yaml", """
            configVersion: v1
            confirmDelete:
              actionType: alert
              title: Delete the photo?
              showOkButton: false
              showCancelButton: true
              customButtons:
                - {label: Delete, actionName: photoDeleted, style: destructive}
                - {label: No}
              vibrate: true
            """))

        // When it is rendered
        let dialog = try dialog(of: try catalog.render(type: "confirmDelete", parameters: [:], locale: "en"))

        // Then there is no OK, the buttons are as written, and what was ignored is a warning
        #expect(dialog.actions.map(\.id) == ["custom1", "custom2", "cancel"])
        #expect(dialog.actions.map(\.label) == ["Delete", "No", "Cancel"])
        #expect(dialog.actions.map(\.role) == [.destructive, .default, .cancel])
        #expect(dialog.actions.first?.action == .event(name: "photoDeleted"))
        #expect(
            catalog.warnings.map { "\($0.entry) \($0.pointer) \($0.code)" } == [
                "configVersion  not-an-action",
                "confirmDelete /vibrate unknown-field",
            ])
    }

    @Test("dotted action names are alert types; a name that could be a path segment is refused")
    func dottedNames() throws {
        // Given one entry named like a reverse-DNS event and one named ".."
        let file = try folder.write("dots.json", #"""
            {"rate.app": {"actionType": "alert", "title": "Rate us?"},
             "..": {"actionType": "alert", "title": "Up?"}}
            """#)
        // When the file is loaded
        let error = #expect(throws: CatalogFileError.self) { try FileCatalog(contentsOf: file) }
        // Then only ".." is refused
        #expect(error?.problems.map(\.entry) == [".."])
        #expect(error?.problems.first?.code == "invalid-type-name")
        let fine = try FileCatalog(contentsOf: try folder.write("dotted.json", #"{"rate.app": {"actionType": "alert", "title": "Rate us?"}}"#))
        #expect(try fine.render(type: "rate.app", parameters: [:], locale: "en").id == "dotted/rate.app")
    }

    @Test("a broken config is refused with every error named by file, entry and pointer")
    func brokenConfig() throws {
        // Given an entry with neither title nor message, one with only a Cancel, one with a
        // button without a label and an unknown style
        let url = try folder.write("broken.json", #"""
            {"actions": {"namedActions": {
              "silent": {"actionType": "alert", "actionData": {"showCancelButton": true}},
              "cancelOnly": {"actionType": "alert", "actionData": {
                 "title": "Stuck", "showOkButton": false, "showCancelButton": true}},
              "sloppy": {"actionType": "alert", "actionData": {
                 "message": "Hi", "style": "huge", "customButtons": [{"actionName": "x"}]}},
              "fine": {"actionType": "alert", "actionData": {"title": "Fine"}}
            }}}
            """#)

        // When it is loaded
        let error = #expect(throws: CatalogFileError.self) { try FileCatalog(contentsOf: url) }

        // Then every error is there, once, with its entry and pointer, and the lines say so
        let found = (error?.problems ?? []).map { "\($0.entry) \($0.pointer) \($0.code)" }
        #expect(
            found == [
                "cancelOnly /actionData/showOkButton no-action",
                "silent /actionData/title missing-text",
                "sloppy /actionData/style invalid-value",
                "sloppy /actionData/customButtons/0/label missing-field",
            ])
        let lines = error?.description.split(separator: "\n").map(String.init) ?? []
        #expect(lines.count == 4)
        #expect(
            lines.first
                == "\(url.path): cancelOnly: /actionData/showOkButton: An alert needs at least one button that is not a cancel (an OK or a custom one).")
        #expect(lines.contains("\(url.path): silent: /actionData/title: An alert needs a title, a message, or both."))
    }

    @Test("an action under namedActions without an actionType is an error, not a skip")
    func namedActionWithoutType() throws {
        let url = try folder.write("typo.json", #"{"actions": {"namedActions": {"a": {"actionTyp": "alert"}}}}"#)
        let error = #expect(throws: CatalogFileError.self) { try FileCatalog(contentsOf: url) }
        #expect(error?.problems.map { "\($0.entry) \($0.pointer) \($0.code)" } == ["a  invalid-action"])
    }
}
