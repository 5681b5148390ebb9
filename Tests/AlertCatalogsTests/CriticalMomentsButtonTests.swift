import AlertSpec
import Foundation
import Testing

@testable import AlertCatalogs

/// Which button is primary, as Critical Moments' SDK decides: custom buttons, then OK, then
/// Cancel; each primary custom button is made preferred in turn, then OK when other buttons
/// show, so the last of them is the one primary.
@Suite("Critical Moments alert configs: the primary button")
struct CriticalMomentsButtonTests {
    let folder: FixtureFolder

    init() throws { folder = try FixtureFolder() }

    /// The roles of `action`'s buttons, and the catalog's warnings as `entry pointer code`.
    private func roles(_ action: String) throws -> (ids: [String], roles: [ActionRole], warnings: [String]) {
        let catalog = try FileCatalog(contentsOf: try folder.write("buttons.json", #"""
            {"configVersion": "v1", "actions": {"namedActions": \#(action)}}
            """#))
        let dialog = try dialog(of: try catalog.render(type: "ask", parameters: [:], locale: "en"))
        return (dialog.actions.map(\.id), dialog.actions.map(\.role), catalog.warnings.map { "\($0.entry) \($0.pointer) \($0.code)" })
    }

    @Test("OK is primary by default, after a custom button styled primary, which is shown as default")
    func okAfterPrimaryCustom() throws {
        let found = try roles(#"""
            {"ask": {"actionType": "alert", "actionData": {"title": "Update now?",
              "customButtons": [{"label": "Release notes", "actionName": "notes", "style": "primary"}]}}}
            """#)
        #expect(found.ids == ["custom1", "ok"])
        #expect(found.roles == [.default, .primary])
        #expect(found.warnings == ["ask /actionData/customButtons/0/style primary-demoted"])
    }

    @Test("showOkButton false leaves the last primary custom button primary")
    func noOKLastCustomPrimary() throws {
        let found = try roles(#"""
            {"ask": {"actionType": "alert", "actionData": {"title": "Rate us?", "showOkButton": false,
              "showCancelButton": true,
              "customButtons": [{"label": "Later"}, {"label": "Rate", "actionName": "rate", "style": "primary"}]}}}
            """#)
        #expect(found.ids == ["custom1", "custom2", "cancel"])
        #expect(found.roles == [.default, .primary, .cancel])
        #expect(found.warnings.isEmpty)
    }

    @Test("two primary custom buttons without OK: the last wins, the first is shown as default with a warning")
    func twoPrimaryCustomsLastWins() throws {
        let found = try roles(#"""
            {"ask": {"actionType": "alert", "actionData": {"title": "Pick", "showOkButton": false,
              "customButtons": [{"label": "A", "style": "primary"}, {"label": "B", "style": "primary"}]}}}
            """#)
        #expect(found.roles == [.default, .primary])
        #expect(found.warnings == ["ask /actionData/customButtons/0/style primary-demoted"])
    }

    @Test("OK beside Cancel only is primary; OK alone is not marked, as the SDK highlights it only beside others")
    func okWithCancelAndAlone() throws {
        let withCancel = try roles(#"{"ask": {"actionType": "alert", "actionData": {"title": "Sure?", "showCancelButton": true}}}"#)
        #expect(withCancel.roles == [.primary, .cancel])
        let alone = try roles(#"{"ask": {"actionType": "alert", "actionData": {"title": "Saved."}}}"#)
        #expect(alone.ids == ["ok"])
        #expect(alone.roles == [.default])
    }

    @Test("a destructive custom button keeps its role when OK is primary")
    func destructiveStays() throws {
        let found = try roles(#"""
            {"ask": {"actionType": "alert", "actionData": {"title": "Delete?", "showCancelButton": true,
              "customButtons": [{"label": "Delete", "style": "destructive"}]}}}
            """#)
        #expect(found.roles == [.destructive, .primary, .cancel])
        #expect(found.warnings.isEmpty)
    }
}
