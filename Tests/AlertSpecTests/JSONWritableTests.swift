import Foundation
import Testing

@testable import AlertSpec

@Suite("JSON writers give the bytes of the Encodable form")
struct JSONWritableTests {
    /// The value through its writer (`encode`) and through `Encodable` (`encodeStreaming`), as text.
    private func bothWays<T: Encodable & JSONWritable>(_ value: T, absentOptionals: Bool = false) throws -> (written: String, streamed: String) {
        var encoder = OrderedJSONEncoder()
        encoder.writesAbsentOptionals = absentOptionals
        return (
            String(decoding: try encoder.encode(value), as: UTF8.self),
            String(decoding: try encoder.encodeStreaming(value), as: UTF8.self)
        )
    }

    private static let appearance = ActionAppearance(
        font: Font(size: 15.5, weight: .bold, family: "Avenir"), color: "#112233FF", borderWidth: 0.5, cornerRadius: 1e15)

    /// Every action type, every parameter kind, a key that needs escaping.
    private static let actions: [AlertSpec.Action] = [
        .init(id: "d", label: "Dismiss \"quoted\" \\ /é\n"),
        .init(id: "e", label: "E", role: .primary, action: .event(name: "tapped")),
        .init(id: "o", label: "O", role: .destructive, action: .openURL(url: "https://example.org/a?b=c")),
        .init(id: "p", label: "P", action: .requestPermission(.notifications), appearance: appearance),
        .init(
            id: "n", label: "N", role: .cancel,
            action: .next(
                alert: "app/next",
                params: ["b": .boolean(true), "i": .integer(-42), "x": .number(2.5), "s": .string("ä\u{01}"), "we\"ird": .number(-0.0)])),
    ]

    private static let page = CardPage<String>(
        id: "one", title: "One", image: .url("https://example.org/i.png", tint: "#FFFFFF80"), description: "First",
        actionButton: CardButton(title: "Go", action: .event(name: "go")), alternativeButton: CardButton(title: "Not now", showsActivity: true),
        next: "two", dismissable: false)

    private static let toast = AlertSpec.Toast(
        content: .stacked([
            .beside([
                .image(.asset("bell", tint: "#FF0000FF"), size: GridSize(width: 2, height: 3)),
                .text(ToastText("Hello", font: Font(size: 13, weight: .medium), backgroundColor: "#000000FF")),
                .spacer(),
            ]),
            .text(ToastText("World", alignment: .trailing, size: GridSize(width: 4))),
            .spacer(GridSize(width: 7.5, height: 0.25)),
        ]),
        appearance: ToastAppearance(position: .bottom, offset: 8.25, size: .absolute(width: 320, height: 64.5)),
        animation: ToastAnimation(
            transition: .manual, duration: 0.1,
            show: [AnimationStep(duration: 1.5, delay: 0.05, curve: .spring, from: AnimationState(alpha: 0, scale: 0.5, rotation: -90, translation: Offset(x: 1, y: -2)))],
            hide: []))

    /// Bodies of every kind, with their optional fields present and absent.
    static let bodies: [AlertSpec.Body] = [
        .alert(.init(actions: [])),
        .alert(
            .init(
                style: .large, title: "T", message: "M", image: .asset("gift"), input: AlertInput(placeholder: "Name", keyboard: .email, secure: true),
                actions: actions,
                presentation: Presentation(
                    maskColor: "#00000099", dismissOnTapOutside: true, animation: .fade, animationDuration: 1e-7, headerLayout: .horizontal,
                    actionsLayout: .vertical, spacing: .init(contentInset: 20, titleToMessage: 4.5, messageToActions: 1e16, betweenActions: -1)),
                appearance: DialogAppearance(
                    title: TextStyle(font: Font(size: 20), color: "#FF0000FF", alignment: .leading), backgroundColor: "#EEEEEEFF",
                    borderWidth: 2, borderColor: "#000000FF", cornerRadius: 0.1 + 0.2, offset: Offset(x: 3, y: 4)))),
        .alert(.init(message: "only a message", image: .url("https://example.org/x.png"), input: AlertInput(), actions: [actions[0]])),
        .sheet(.init(options: [], cancel: .init(id: "c", label: "Cancel", role: .cancel))),
        .sheet(.init(title: "T", message: "M", options: actions, cancel: .init(id: "c", label: "Cancel", role: .cancel))),
        .hud(.init(state: .progress)),
        .hud(.init(state: .progress, text: "Loading", progress: 0.33, autoHide: 0)),
        .hud(.init(state: .failed, text: "Failed")),
        .toast(.init(content: .text(ToastText("Plain")))),
        .toast(toast),
        .toast(.init(content: .image(.asset("a"), size: GridSize()), appearance: ToastAppearance(size: .relative(xRatio: 0.5, yRatio: 1)))),
        .card(.init(pages: [page, CardPage(id: "two", title: "Two")])),
        .card(
            .init(
                start: "two", pages: [CardPage(id: "two", title: "Two")], background: .blurredDark,
                appearance: CardAppearance(tintColor: "#123456FF", titleColor: "#654321FF"))),
    ]

    static var specs: [AlertSpec] {
        bodies.enumerated().map { index, body in
            AlertSpec(id: "test/\(index)", locale: index.isMultiple(of: 2) ? "en" : "ar-EG", priority: index * 77, body: body)
        }
    }

    @Test("every kind, optional fields present and absent: the same bytes both ways", arguments: specs.indices)
    func sameBytes(index: Int) throws {
        let spec = Self.specs[index]
        // Given a spec; when it is encoded through its writer and through Encodable
        let (written, streamed) = try bothWays(spec)
        // Then the bytes are the same
        #expect(written == streamed)
        // And so are the draft's, which has the kind's fields after its own
        let draft = SpecDraft(priority: spec.priority, body: spec.body)
        let (writtenDraft, streamedDraft) = try bothWays(draft)
        #expect(writtenDraft == streamedDraft)
        // And with absent optionals written as null (the shape `SpecReader` compares a draft against)
        let (writtenShape, streamedShape) = try bothWays(draft, absentOptionals: true)
        #expect(writtenShape == streamedShape)
    }

    @Test("the fixtures cover every kind and give every stored property a value somewhere")
    func fixturesCoverTheModel() {
        // Given the fixtures above and every type reachable from a spec
        var all = Set<String>()
        var present = Set<String>()
        for spec in Self.specs { Self.collectProperties(of: spec, all: &all, present: &present) }
        // Then each kind is there, and no property is nil in every fixture: a field added to the
        // model but not to a writer shows in `sameBytes` as soon as a fixture sets it
        #expect(Set(Self.specs.map(\.kind)) == Set(AlertKind.allCases))
        #expect(all.subtracting(present).sorted() == [])
        #expect(all.count > 100)
    }

    /// Records "Type.property" for the stored properties of every struct within `value` in `all`,
    /// and in `present` those that are not nil.
    private static func collectProperties(of value: Any, all: inout Set<String>, present: inout Set<String>) {
        let mirror = Mirror(reflecting: value)
        switch mirror.displayStyle {
        case .struct:
            for child in mirror.children {
                let name = "\(type(of: value)).\(child.label ?? "?")"
                all.insert(name)
                let inner = Mirror(reflecting: child.value)
                if inner.displayStyle == .optional && inner.children.isEmpty { continue }
                present.insert(name)
                collectProperties(of: child.value, all: &all, present: &present)
            }
        case .optional, .enum, .tuple, .collection, .dictionary:
            for child in mirror.children { collectProperties(of: child.value, all: &all, present: &present) }
        default:
            break
        }
    }

    @Test("a non-finite number is the same error both ways, with its coding path")
    func nonFinite() throws {
        // Given a HUD whose progress is NaN
        let spec = AlertSpec(id: "a/b", locale: "en", priority: 1, body: .hud(.init(state: .progress, progress: .nan)))
        // When it is encoded; then it throws, naming the member
        do {
            _ = try OrderedJSONEncoder().encode(spec)
            Issue.record("NaN was encoded")
        } catch EncodingError.invalidValue(_, let context) {
            #expect(context.codingPath.map(\.stringValue) == ["progress"])
        }
        // And the writer alone throws too
        var output = JSONOutput()
        #expect(throws: EncodingError.self) { try spec.writeJSON(to: &output) }
    }

    /// A value whose writer and `Encodable` form differ on purpose, to see which one was used.
    private struct Marked: Encodable, JSONWritable {
        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode("encodable")
        }

        func writeJSON(to output: inout JSONOutput) { output.write("writer") }
    }

    @Test("an issue, and a parsed JSON value, are written as their Encodable and parsed forms")
    func issueAndParsed() throws {
        let issue = SpecIssue(pointer: "/a~1b/0", code: "unknown-field", message: "\"é\" is not a field here.\n")
        let (written, streamed) = try bothWays([issue, issue])
        #expect(written == streamed)

        let text = #"{"a":[1,-0,2.5,1e300,true,false,null,"x\"\u00e9\n/"],"b":{"c":{}}}"#
        let json = try JSON(parsing: Array(text.utf8))
        var output = JSONOutput()
        try json.writeJSON(to: &output)
        #expect(try JSON(parsing: output.bytes) == json)
    }

    @Test("a value known only as Encodable still goes through its writer")
    func dynamicDispatch() throws {
        // Given a writable value in code that knows only that it is Encodable
        func encode<T: Encodable>(_ value: T) throws -> String {
            String(decoding: try OrderedJSONEncoder().encode(value), as: UTF8.self)
        }
        // When it is encoded; then its writer wrote it, and the streaming path would not have
        #expect(try encode(Marked()) == #""writer""#)
        #expect(String(decoding: try OrderedJSONEncoder().encodeStreaming(Marked()), as: UTF8.self) == #""encodable""#)
    }
}
