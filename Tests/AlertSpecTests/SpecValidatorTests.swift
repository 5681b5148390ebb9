import Foundation
import Testing

@testable import AlertSpec

/// A directory with one alert, `app/known`, which needs an integer `count`.
private struct OneAlertDirectory: AlertDirectory {
    func problem(alert: String, parameters: [String: ParameterValue]) -> (code: String, message: String)? {
        guard alert == "app/known" else { return ("unknown-alert", "There is no alert \"\(alert)\".") }
        guard case .integer = parameters["count"] else { return ("invalid-next-params", "count is required") }
        return nil
    }
}

/// Reads and validates a JSON draft the way `POST /v1/specs/validate` does.
private func check(_ json: String) throws -> (errors: [SpecIssue], warnings: [SpecIssue], draft: SpecDraft?) {
    let reading = try SpecReader.inspect(Data(json.utf8))
    guard let draft = reading.draft else { return (reading.issues, [], nil) }
    let result = SpecValidator(directory: OneAlertDirectory()).validate(draft)
    return (reading.issues + result.errors, result.warnings, result.draft)
}

@Suite("Validating specs: every rule, with its pointer")
struct SpecValidatorTests {
    @Test("valid specs of every kind pass", arguments: [
        ##"{"kind":"alert","title":"Leave?","actions":[{"id":"ok","label":"OK"}]}"##,
        ##"{"kind":"sheet","options":[{"id":"a","label":"A"}],"cancel":{"id":"c","label":"Cancel","role":"cancel"}}"##,
        ##"{"kind":"hud","state":"progress","progress":0.5}"##,
        ##"{"kind":"toast","content":{"type":"beside","items":[{"type":"spacer"},{"type":"text","text":"Hi"}]}}"##,
        ##"{"kind":"toast","content":{"type":"beside","items":[{"type":"spacer","size":{"width":0.25,"height":1.35}},{"type":"text","text":"Hi","size":{"width":7.5,"height":0.4}}]}}"##,
        ##"{"kind":"card","pages":[{"id":"a","title":"A","next":"b","dismissable":false},{"id":"b","title":"B"}]}"##,
        ##"{"kind":"card","pages":[{"id":"a","title":"A","actionButton":{"title":"Save","action":{"type":"event","name":"save"},"showsActivity":true}}]}"##,
    ])
    func validKinds(json: String) throws {
        let result = try check(json)
        #expect(result.errors == [])
        #expect(result.draft != nil)
    }

    @Test("each broken rule is reported at its pointer with its code", arguments: [
        // Text and buttons of an alert
        (##"{"kind":"alert","actions":[{"id":"ok","label":"OK"}]}"##, "/title", "missing-text"),
        (##"{"kind":"alert","title":"t","actions":[{"id":"c","label":"Cancel","role":"cancel"}]}"##, "/actions", "no-action"),
        (##"{"kind":"alert","title":"t","actions":[]}"##, "/actions", "no-action"),
        (##"{"kind":"alert","title":"t","actions":[{"id":"a","label":"A"},{"id":"b","label":"B","role":"cancel"},{"id":"c","label":"C","role":"cancel"}]}"##, "/actions/2/role", "several-cancels"),
        (##"{"kind":"alert","title":"t","actions":[{"id":"a","label":"A"},{"id":"a","label":"B"}]}"##, "/actions/1/id", "duplicate-id"),
        (##"{"kind":"alert","title":"t","actions":[{"id":"a","label":""}]}"##, "/actions/0/label", "empty-text"),
        (##"{"kind":"alert","title":"\##(String(repeating: "x", count: 201))","actions":[{"id":"a","label":"A"}]}"##, "/title", "text-too-long"),
        // Colours, URLs, ranges
        (##"{"kind":"alert","title":"t","actions":[{"id":"a","label":"A"}],"presentation":{"maskColor":"#12345"}}"##, "/presentation/maskColor", "invalid-color"),
        (##"{"kind":"alert","title":"t","actions":[{"id":"a","label":"A","appearance":{"color":"blue"}}]}"##, "/actions/0/appearance/color", "invalid-color"),
        (##"{"kind":"alert","title":"t","image":{"url":"https://x.example/a.png","tint":"#GG0000"},"actions":[{"id":"a","label":"A"}]}"##, "/image/tint", "invalid-color"),
        (##"{"kind":"alert","title":"t","actions":[{"id":"a","label":"A","action":{"type":"openURL","url":"javascript:alert(1)"}}]}"##, "/actions/0/action/url", "forbidden-scheme"),
        (##"{"kind":"alert","title":"t","actions":[{"id":"a","label":"A","action":{"type":"openURL","url":"file:///etc/passwd"}}]}"##, "/actions/0/action/url", "forbidden-scheme"),
        (##"{"kind":"alert","title":"t","actions":[{"id":"a","label":"A","action":{"type":"openURL","url":"not a url"}}]}"##, "/actions/0/action/url", "invalid-url"),
        (##"{"kind":"alert","title":"t","actions":[{"id":"a","label":"A","action":{"type":"openURL","url":"https://"}}]}"##, "/actions/0/action/url", "invalid-url"),
        (##"{"kind":"alert","title":"t","image":{"asset":"a","url":"https://x.example/a.png"},"actions":[{"id":"a","label":"A"}]}"##, "/image", "invalid-image"),
        (##"{"kind":"alert","title":"t","actions":[{"id":"a","label":"A"}],"presentation":{"animationDuration":-1}}"##, "/presentation/animationDuration", "out-of-range"),
        (##"{"kind":"alert","title":"t","actions":[{"id":"a","label":"A"}],"appearance":{"title":{"font":{"size":0}}}}"##, "/appearance/title/font/size", "out-of-range"),
        (##"{"kind":"alert","title":"t","priority":1001,"actions":[{"id":"a","label":"A"}]}"##, "/priority", "out-of-range"),
        // next actions
        (##"{"kind":"alert","title":"t","actions":[{"id":"a","label":"A","action":{"type":"next","alert":"app/nope"}}]}"##, "/actions/0/action/alert", "unknown-alert"),
        (##"{"kind":"alert","title":"t","actions":[{"id":"a","label":"A","action":{"type":"next","alert":"app/known","params":{"count":"x"}}}]}"##, "/actions/0/action/params", "invalid-next-params"),
        (##"{"kind":"alert","title":"t","actions":[{"id":"a","label":"A","action":{"type":"next","alert":"nocatalog"}}]}"##, "/actions/0/action/alert", "invalid-alert-id"),
        // Reading: unknown kinds, action types, fields; types
        (##"{"kind":"popup"}"##, "/kind", "unknown-kind"),
        (##"{"kind":"alert","title":"t","actions":[{"id":"a","label":"A","action":{"type":"teleport"}}]}"##, "/actions/0/action/type", "invalid-value"),
        (##"{"kind":"alert","title":"t","actions":[{"id":"a","label":"A"}],"colour":"#FFFFFF"}"##, "/colour", "unknown-field"),
        (##"{"kind":"alert","title":"t","actions":[{"id":"a","label":"A","rolle":"primary"}]}"##, "/actions/0/rolle", "unknown-field"),
        (##"{"kind":"alert","title":"t","priority":"high","actions":[{"id":"a","label":"A"}]}"##, "/priority", "invalid-type"),
        (##"{"kind":"alert","title":"t","actions":[{"label":"A"}]}"##, "/actions/0/id", "missing-field"),
        (##"{"kind":"alert","title":"x","priority":7.5,"actions":[{"id":"ok","label":"OK"}]}"##, "/priority", "invalid-type"),
        (##"{"kind":"alert","title":"x","priority":1e300,"actions":[{"id":"ok","label":"OK"}]}"##, "/priority", "out-of-range"),
        // Sheets
        (##"{"kind":"sheet","options":[],"cancel":{"id":"c","label":"Cancel","role":"cancel"}}"##, "/options", "no-option"),
        (##"{"kind":"sheet","options":[{"id":"a","label":"A","role":"cancel"}],"cancel":{"id":"c","label":"C","role":"cancel"}}"##, "/options/0/role", "cancel-option"),
        (##"{"kind":"sheet","options":[{"id":"a","label":"A"}],"cancel":{"id":"c","label":"C"}}"##, "/cancel/role", "invalid-role"),
        (##"{"kind":"sheet","options":[{"id":"a","label":"A"}]}"##, "/cancel", "missing-field"),
        // HUDs
        (##"{"kind":"hud","state":"progress","progress":1.5}"##, "/progress", "out-of-range"),
        (##"{"kind":"hud","state":"success","progress":0.5}"##, "/progress", "progress-not-allowed"),
        (##"{"kind":"hud","state":"success","autoHide":-2}"##, "/autoHide", "out-of-range"),
        // Toasts
        (##"{"kind":"toast","content":{"type":"stacked","items":[]}}"##, "/content/items", "empty-group"),
        (##"{"kind":"toast","content":{"type":"text","text":"Hi","size":{"width":13}}}"##, "/content/size/width", "out-of-range"),
        (##"{"kind":"toast","content":{"type":"text","text":"Hi","size":{"width":12.5}}}"##, "/content/size/width", "out-of-range"),
        (##"{"kind":"toast","content":{"type":"spacer","size":{"height":0}}}"##, "/content/size/height", "out-of-range"),
        (##"{"kind":"toast","content":{"type":"spacer","size":{"height":-0.25}}}"##, "/content/size/height", "out-of-range"),
        (##"{"kind":"toast","content":{"type":"text","text":"Hi"},"appearance":{"size":{"xRatio":0,"yRatio":0.5}}}"##, "/appearance/size/xRatio", "out-of-range"),
        (##"{"kind":"toast","content":{"type":"text","text":"Hi"},"appearance":{"size":{"xRatio":1.2,"yRatio":0.5}}}"##, "/appearance/size/xRatio", "out-of-range"),
        (##"{"kind":"toast","content":{"type":"text","text":"Hi"},"animation":{"show":[{"to":{"alpha":2}}]}}"##, "/animation/show/0/to/alpha", "out-of-range"),
        (##"{"kind":"toast","content":{"type":"video"}}"##, "/content/type", "unknown-element"),
        // Cards
        (##"{"kind":"card","pages":[]}"##, "/pages", "no-page"),
        (##"{"kind":"card","pages":[{"id":"a","title":""}]}"##, "/pages/0/title", "missing-title"),
        (##"{"kind":"card","pages":[{"id":"a","title":"A"},{"id":"a","title":"B"}]}"##, "/pages/1/id", "duplicate-page-id"),
        (##"{"kind":"card","start":"z","pages":[{"id":"a","title":"A"}]}"##, "/start", "unknown-page"),
        (##"{"kind":"card","pages":[{"id":"a","title":"A","next":"b"}]}"##, "/pages/0/next", "unknown-page"),
        (##"{"kind":"card","pages":[{"id":"a","title":"A","next":"b","dismissable":false},{"id":"b","title":"B","next":"a","dismissable":false}]}"##, "/start", "endless-flow"),
        (##"{"kind":"card","pages":[{"id":"a","title":"A"}],"appearance":{"titleColor":"#000"}}"##, "/appearance/titleColor", "invalid-color"),
    ] as [(String, String, String)])
    func brokenRule(json: String, pointer: String, code: String) throws {
        // Given a spec that breaks one rule; When it is validated
        let errors = try check(json).errors
        // Then that rule is reported, at that pointer
        #expect(errors.contains { $0.pointer == pointer && $0.code == code }, "got \(errors)")
        #expect(errors.allSatisfy { !$0.message.isEmpty })
    }

    @Test("every broken rule is reported at once")
    func allAtOnce() throws {
        let errors = try check(
            ##"{"kind":"alert","actions":[{"id":"c","label":"","role":"cancel"}],"presentation":{"maskColor":"red"}}"##
        ).errors
        #expect(Set(errors.map(\.code)) == ["missing-text", "empty-text", "no-action", "invalid-color"])
    }

    @Test("an unknown choice or a wrong type is one error among the others, not the only one")
    func unknownValuesHideNothing() throws {
        let result = try check(
            ##"{"kind":"alert","title":"t","style":"sheet","actions":[{"id":"a","label":"A","role":"bold"}],"presentation":{"maskColor":"red","dismissOnTapOutside":"yes"}}"##
        )
        #expect(
            result.errors.map { "\($0.pointer) \($0.code)" }.sorted() == [
                "/actions/0/role invalid-value", "/presentation/dismissOnTapOutside invalid-type",
                "/presentation/maskColor invalid-color", "/style invalid-value",
            ].sorted(), "\(result.errors)")
    }

    @Test("several primaries: the last one wins, the others become default, with a warning each")
    func lastPrimaryWins() throws {
        let result = try check(
            ##"{"kind":"alert","title":"t","actions":[{"id":"a","label":"A","role":"primary"},{"id":"b","label":"B","role":"primary"},{"id":"c","label":"C","role":"primary"}]}"##
        )
        #expect(result.errors == [])
        #expect(result.warnings.map(\.pointer) == ["/actions/0/role", "/actions/1/role"])
        #expect(result.warnings.allSatisfy { $0.code == "several-primaries" })
        guard case .alert(let dialog) = result.draft?.body else {
            Issue.record("not an alert")
            return
        }
        #expect(dialog.actions.map(\.role) == [.default, .default, .primary])
        #expect(dialog.actions[0].appearance == .standard(for: .default))
    }

    @Test("defaults are filled in the normalized spec")
    func defaults() throws {
        let draft = try #require(try check(##"{"kind":"alert","title":"t","actions":[{"id":"a","label":"A"}]}"##).draft)
        #expect(draft.priority == 500)
        guard case .alert(let dialog) = draft.body else {
            Issue.record("not an alert")
            return
        }
        #expect(dialog.style == .dialog)
        #expect(dialog.actions[0].role == .default)
        #expect(dialog.actions[0].action == .dismiss)
        #expect(dialog.presentation == Presentation())
        let json = String(decoding: try OrderedJSONEncoder().encode(draft), as: UTF8.self)
        #expect(json.contains(#""style":"dialog""#))
        #expect(json.contains(##""maskColor":"#00000066""##))
    }

    @Test("envelope members sent back by a client are accepted and ignored")
    func envelopeIgnored() throws {
        let result = try check(
            ##"{"schemaVersion":1,"id":"app/x","lane":"modal","locale":"en","direction":"ltr","kind":"alert","title":"t","actions":[{"id":"a","label":"A"}]}"##
        )
        #expect(result.errors == [])
    }

    @Test("text that is not JSON is malformed, not invalid")
    func malformed() {
        #expect(throws: SpecReader.MalformedJSON.self) { try SpecReader.inspect(Data("{nope".utf8)) }
        #expect(throws: SpecReader.MalformedJSON.self) { try SpecReader.inspect(Data("[1,2]".utf8)) }
        // Read as the queue reads bodies: a repeated member is malformed, not "last wins".
        #expect(throws: SpecReader.MalformedJSON.self) { try SpecReader.inspect(Data(#"{"kind": "alert", "kind": "hud"}"#.utf8)) }
    }

    @Test("a UTF-8 byte order mark before a spec is skipped")
    func byteOrderMark() throws {
        let spec = ##"{"kind":"hud","state":"progress","progress":0.5}"##
        let reading = try SpecReader.inspect(Data([0xEF, 0xBB, 0xBF] + Array(spec.utf8)))
        #expect(reading.issues == [])
        #expect(reading.draft != nil)
    }

    @Test(
        "a null member is read as left out: the same draft as without it",
        arguments: [
            (##"{"kind":"alert","title":"t","message":null,"style":null,"image":null,"input":null,"presentation":null,"actions":[{"id":"a","label":"A","role":null,"action":null,"appearance":null}]}"##,
             ##"{"kind":"alert","title":"t","actions":[{"id":"a","label":"A"}]}"##),
            (##"{"kind":"alert","title":"t","actions":[{"id":"a","label":"A","appearance":{"font":null,"color":null}}],"appearance":{"title":null}}"##,
             ##"{"kind":"alert","title":"t","actions":[{"id":"a","label":"A","appearance":{}}],"appearance":{}}"##),
            (##"{"kind":"alert","title":"t","actions":[{"id":"a","label":"A","action":{"type":"next","alert":"app/known","params":{"count":1,"note":null}}}]}"##,
             ##"{"kind":"alert","title":"t","actions":[{"id":"a","label":"A","action":{"type":"next","alert":"app/known","params":{"count":1}}}]}"##),
            (##"{"kind":"toast","content":{"type":"text","text":"Hi","backgroundColor":null},"appearance":{"size":{"width":100,"height":40},"style":null}}"##,
             ##"{"kind":"toast","content":{"type":"text","text":"Hi"},"appearance":{"size":{"width":100,"height":40},"style":{}}}"##),
            (##"{"kind":"card","start":null,"pages":[{"id":"a","title":"A","next":null,"description":null}],"priority":null}"##,
             ##"{"kind":"card","pages":[{"id":"a","title":"A"}]}"##),
            (##"{"kind":"hud","state":"progress","text":null,"progress":null,"autoHide":null}"##, ##"{"kind":"hud","state":"progress"}"##),
        ])
    func nullIsLeftOut(withNulls: String, without: String) throws {
        let given = try check(withNulls)
        let plain = try check(without)
        #expect(given.errors == [])
        #expect(given.draft != nil)
        #expect(given.draft == plain.draft)
    }

    @Test(
        "a null where a value is required is missing-field, naming the member",
        arguments: [
            (##"{"kind":null}"##, "/kind", "\"kind\" is required"),
            (##"{"kind":"alert","title":"t","actions":[{"id":null,"label":"A"}]}"##, "/actions/0/id", "\"id\" is required"),
            (##"{"kind":"alert","title":"t","actions":null}"##, "/actions", "at least one button"),
            (##"{"kind":"hud","state":null}"##, "/state", "\"state\" is required"),
            (##"{"kind":"toast","content":null}"##, "/content", "\"content\" is required"),
            (##"{"kind":"alert","title":"t","actions":[null]}"##, "/actions/0", "is required"),
        ])
    func nullWhereRequired(json: String, pointer: String, saying: String) throws {
        let errors = try check(json).errors
        #expect(errors.map(\.pointer) == [pointer], "\(errors)")
        #expect(errors.first?.message.contains(saying) == true, "\(errors)")
    }

    @Test("a member the model does not have is unknown, null or not")
    func unknownNull() throws {
        let errors = try check(##"{"kind":"alert","title":"t","colour":null,"actions":[{"id":"a","label":"A","action":{"type":"dismiss","url":null}}]}"##).errors
        #expect(errors.map(\.pointer) == ["/actions/0/action/url", "/colour"])
        #expect(errors.allSatisfy { $0.code == "unknown-field" })
    }

    @Test("an unknown member's name is escaped in its pointer: ~ as ~0, / as ~1 (RFC 6901)")
    func escapedPointer() throws {
        let errors = try check(##"{"kind":"alert","title":"t","a/b":1,"c~d":2,"plain":3,"actions":[{"id":"a","label":"A"}]}"##).errors
        #expect(errors.map(\.pointer) == ["/a~1b", "/c~0d", "/plain"])
        #expect(JSONPointer.escape("~/~") == "~0~1~0")
        #expect(JSONPointer.escape("é") == "é")
    }

    @Test("a partly given object keeps the defaults of its context")
    func contextDefaults() throws {
        // A primary button whose appearance is given empty stays semibold.
        let alert = try #require(
            try check(##"{"kind":"alert","title":"t","actions":[{"id":"a","label":"A","role":"primary","appearance":{}}],"appearance":{"message":{"font":{"weight":"bold"}}}}"##).draft)
        guard case .alert(let dialog) = alert.body else { Issue.record("not an alert"); return }
        #expect(dialog.actions[0].appearance.font.weight == .semibold)
        // A message font given only a weight keeps the message's 13 pt.
        #expect(dialog.appearance.message.font == Font(size: 13, weight: .bold))
        // A toast text font given only a weight keeps the toast's 15 pt.
        let toast = try #require(try check(##"{"kind":"toast","content":{"type":"text","text":"Hi","font":{"weight":"bold"}}}"##).draft)
        guard case .toast(let content) = toast.body, case .text(let text) = content.content else { Issue.record("not a toast text"); return }
        #expect(text.font == Font(size: 15, weight: .bold))
    }

    @Test("a full spec whose lane does not fit its kind does not decode")
    func laneChecked() {
        let json = ##"{"schemaVersion":1,"id":"a/b","kind":"hud","lane":"modal","locale":"en","direction":"ltr","priority":1,"state":"success","autoHide":2}"##
        #expect(throws: SpecDecodingError.self) { try JSONDecoder().decode(AlertSpec.self, from: Data(json.utf8)) }
    }
}

