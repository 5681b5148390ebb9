import AlertSpec
import Testing

@testable import AlertCatalogs

@Suite("The built-in app catalog")
struct BuiltInCatalogTests {
    let registry: CatalogRegistry
    let app: any AlertCatalog

    init() throws {
        registry = try CatalogRegistry.builtIn()
        app = try #require(registry["app"])
    }

    private func render(_ type: String, _ parameters: [String: ParameterValue] = [:]) throws -> AlertSpec {
        try app.render(type: type, parameters: parameters, locale: "en")
    }

    private func dialog(_ type: String, _ parameters: [String: ParameterValue] = [:]) throws -> AlertSpec.Dialog {
        guard case .alert(let dialog) = try render(type, parameters).body else {
            Issue.record("\(type) is not an alert dialog")
            throw CatalogError.unknownType(catalog: "app", type: type)
        }
        return dialog
    }

    @Test("A draft and its dedupe key read together are the draft and the key read apart, for every sample")
    func draftAndDedupeKeyTogether() throws {
        for entry in app.entries {
            let (draft, key) = try app.draftAndDedupeKey(type: entry.type, parameters: entry.example, locale: "en")
            #expect(draft == (try app.draft(type: entry.type, parameters: entry.example, locale: "en")))
            #expect(key == app.dedupeKey(type: entry.type, parameters: entry.example))
        }
        let messages: [String: ParameterValue] = ["count": .integer(2), "sender": .string("Ana")]
        #expect(try app.draftAndDedupeKey(type: "newMessages", parameters: messages, locale: "fr").dedupeKey == "newMessages:Ana")
        #expect(throws: CatalogError.self) { try app.draftAndDedupeKey(type: "noSuchAlert", parameters: [:], locale: "en") }
    }

    @Test("every case has a sample, and every sample renders in every locale with its example")
    func everySampleRenders() throws {
        #expect(app.entries.count == AppAlert.samples.count)
        for entry in app.entries {
            for locale in app.locales {
                let spec = try app.render(type: entry.type, parameters: entry.example, locale: locale)
                #expect(spec.id == "app/\(entry.type)")
                #expect(spec.kind == entry.kind)
                #expect(spec.locale == locale)
                #expect((0...1000).contains(spec.priority))
            }
        }
    }

    @Test("the issue's alerts exist with the kinds asked for")
    func requiredAlerts() {
        let kinds = Dictionary(uniqueKeysWithValues: app.entries.map { ($0.type, $0.kind) })
        for type in ["questionExit", "answerExit", "logoutConfirm", "newMessages", "pushPermission"] {
            #expect(kinds[type] == .alert, "\(type)")
        }
        for type in ["loading", "saved", "failed"] { #expect(kinds[type] == .hud, "\(type)") }
    }

    @Test("leaving an editor offers cancel and a destructive choice", arguments: ["questionExit", "answerExit"])
    func exitAlerts(type: String) throws {
        let roles = try dialog(type).actions.map(\.role)
        #expect(roles.filter { $0 == .cancel }.count == 1)
        #expect(roles.filter { $0 == .destructive }.count == 1)
    }

    @Test("logout uses the standard OK and Cancel buttons in the platform's words")
    func logout() throws {
        let actions = try dialog("logoutConfirm").actions
        #expect(actions.map(\.id) == ["cancel", "ok"])
        #expect(actions.map(\.label) == ["Cancel", "OK"])
        #expect(actions.last?.action == .event(name: "logout"))
    }

    @Test("new messages names the sender, counts, and opens the inbox")
    func newMessages() throws {
        let dialog = try dialog("newMessages", ["count": .string("7"), "sender": .string("Li %@ Wei")])
        #expect(dialog.title == "New messages from Li %@ Wei")
        #expect(dialog.message == "You have 7 new messages.")
        #expect(dialog.actions.contains { $0.action == .openURL(url: "alertd-demo://inbox") && $0.role == .primary })
    }

    @Test("the push pre-prompt asks for the notification permission")
    func pushPermission() throws {
        #expect(try dialog("pushPermission").actions.contains { $0.action == .requestPermission(.notifications) })
    }

    @Test("HUDs show progress, success and failure", arguments: [
        ("loading", HUDState.progress), ("saved", .success), ("failed", .failed),
    ])
    func huds(type: String, state: HUDState) throws {
        let spec = try render(type)
        guard case .hud(let hud) = spec.body else { Issue.record("not a HUD"); return }
        #expect(hud.state == state)
        #expect(spec.lane == .hud)
        #expect(hud.text?.isEmpty == false)
    }

    @Test("the listing describes parameters and examples")
    func listing() throws {
        let entry = try #require(app.entry("newMessages"))
        #expect(
            entry.parameters == [
                ParameterInfo(name: "count", type: .integer, required: true),
                ParameterInfo(name: "sender", type: .string, required: true),
            ])
        #expect(entry.example == ["count": .integer(3), "sender": .string("Ana")])
    }

    @Test("an unknown type and an unknown catalog are not found")
    func unknown() {
        #expect(throws: CatalogError.unknownType(catalog: "app", type: "nope")) { try render("nope") }
        #expect(throws: CatalogError.unknownCatalog("nope")) {
            try registry.render(catalog: "nope", type: "x", parameters: [:], locale: nil)
        }
    }

    @Test("a requested locale falls back to the source language")
    func localeFallback() {
        #expect(app.locale(for: "es-MX") == "en")
        #expect(app.locale(for: "fr-CA") == "fr")
        #expect(app.locale(for: nil) == "en")
    }

    @Test("every kind is covered by a built-in alert")
    func everyKind() throws {
        let kinds = Set(registry.catalogs.flatMap { $0.entries.map(\.kind) })
        #expect(kinds == Set(AlertKind.allCases))
    }

    @Test("the red packet is a large alert with an image URL and a deep link")
    func redPacket() throws {
        let dialog = try dialog("redPacket", ["amount": .string("8.8"), "sender": .string("Wei")])
        #expect(dialog.style == .large)
        #expect(dialog.image?.url?.hasPrefix("https://") == true)
        #expect(dialog.message == "Open it before midnight to collect ¥8.80.")
        #expect(dialog.actions.contains { $0.action == .openURL(url: "alertd-demo://wallet/red-packets") })
        #expect(dialog.appearance.backgroundColor == "#D9302CFF")
    }

    @Test("the invite code is shown and carried, escaped, into the deep link")
    func inviteCode() throws {
        let dialog = try dialog("inviteCode", ["code": .string("AB 12/x"), "inviter": .string("Sam")])
        #expect(dialog.message == "Sam invited you to join. Your invite code is AB 12/x.")
        #expect(dialog.actions.contains { $0.action == .openURL(url: "alertd-demo://invite/AB%2012%2Fx") })
    }

    @Test("redeeming an invite asks in a text field")
    func redeemInvite() throws {
        #expect(try dialog("redeemInvite").input?.placeholder == "Invite code")
    }

    @Test("the share sheet has options and the standard cancel")
    func shareSheet() throws {
        guard case .sheet(let sheet) = try render("shareSheet").body else {
            Issue.record("not a sheet")
            return
        }
        #expect(sheet.options.count >= 3)
        #expect(sheet.cancel.label == "Cancel")
        #expect(sheet.cancel.role == .cancel)
    }

    @Test("the welcome toast is a spacer beside a stack of two texts beside an icon, with a two-step show")
    func welcomeToast() throws {
        guard case .toast(let toast) = try render("welcomeToast", ["name": .string("Ana")]).body else {
            Issue.record("not a toast")
            return
        }
        guard case .beside(let row) = toast.content, row.count == 3, case .spacer = row[0], case .stacked(let column) = row[1],
            case .image = row[2], case .text(let title) = column.first
        else {
            Issue.record("unexpected layout \(toast.content)")
            return
        }
        #expect(title.text == "Welcome back, Ana!")
        #expect(toast.animation.show.count == 2)
    }

    @Test("onboarding is a card flow: notifications, location, done")
    func onboarding() throws {
        let spec = try registry.render(catalog: "onboarding", type: "setup", parameters: [:], locale: nil)
        guard case .card(let card) = spec.body else {
            Issue.record("not a card")
            return
        }
        #expect(card.pages.map(\.id) == ["notifications", "location", "done"])
        #expect(card.start == "notifications")
        #expect(card.pages[0].actionButton?.action == .requestPermission(.notifications))
        #expect(card.pages[1].actionButton?.action == .requestPermission(.location))
        #expect(card.pages[2].next == nil)
    }

    @Test("a built-in catalog whose next action leads nowhere is refused")
    func danglingNext() throws {
        let broken = try EnumCatalog(name: "broken", DanglingNext.self, localizer: SourceLocalizer())
        let error = #expect(throws: CatalogError.self) { try CatalogRegistry([broken]) }
        #expect(error?.problems.first?.contains("app/nope") == true)
    }
}

/// An alert whose button continues with an alert that does not exist.
private enum DanglingNext: AlertTarget {
    case go
    var title: LocalizedText? { LocalizedText("go", default: "Go on?") }
    var actions: [AlertAction] {
        [AlertAction(id: "next", label: LocalizedText("next", default: "Next"), action: .next(alert: "app/nope"))]
    }
    static var samples: [DanglingNext] { [.go] }
}
