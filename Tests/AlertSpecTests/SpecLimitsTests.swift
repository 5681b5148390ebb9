import Foundation
import Testing

@testable import AlertSpec

/// The size and count limits of `SpecLimits`: refused by `SpecReader` before a draft is
/// decoded, and held by the validator for specs built in code.
@Suite("Spec limits: size and lists, refused before decoding")
struct SpecLimitsTests {
    private static func buttons(_ count: Int) -> String {
        (0..<count).map { #"{"id":"b\#($0)","label":"B"}"# }.joined(separator: ",")
    }

    private static func pages(_ count: Int) -> String {
        (0..<count).map { #"{"id":"p\#($0)","title":"P"}"# }.joined(separator: ",")
    }

    /// A row of `count` spacers: `count + 1` layout elements with the row.
    private static func row(_ count: Int) -> String {
        #"{"type":"beside","items":[\#(Array(repeating: #"{"type":"spacer"}"#, count: count).joined(separator: ","))]}"#
    }

    private static func steps(_ count: Int) -> String {
        Array(repeating: #"{"duration":0.1}"#, count: count).joined(separator: ",")
    }

    @Test(
        "a list at its limit reads; one past it is refused at its pointer, and nothing is decoded",
        arguments: [
            (#"{"kind":"alert","title":"t","actions":[\#(buttons(SpecLimits.actions))]}"#,
             #"{"kind":"alert","title":"t","actions":[\#(buttons(SpecLimits.actions + 1))]}"#, "/actions", "too-many-actions"),
            (#"{"kind":"sheet","options":[\#(buttons(SpecLimits.options))],"cancel":{"id":"c","label":"C","role":"cancel"}}"#,
             #"{"kind":"sheet","options":[\#(buttons(SpecLimits.options + 1))],"cancel":{"id":"c","label":"C","role":"cancel"}}"#,
             "/options", "too-many-options"),
            (#"{"kind":"card","pages":[\#(pages(SpecLimits.pages))]}"#, #"{"kind":"card","pages":[\#(pages(SpecLimits.pages + 1))]}"#,
             "/pages", "too-many-pages"),
            (#"{"kind":"toast","content":\#(row(SpecLimits.toastElements - 1))}"#, #"{"kind":"toast","content":\#(row(SpecLimits.toastElements))}"#,
             "/content", "too-many-elements"),
            (#"{"kind":"toast","content":{"type":"spacer"},"animation":{"hide":[\#(steps(SpecLimits.animationSteps))]}}"#,
             #"{"kind":"toast","content":{"type":"spacer"},"animation":{"hide":[\#(steps(SpecLimits.animationSteps + 1))]}}"#,
             "/animation/hide", "too-many-steps"),
        ] as [(String, String, String, String)])
    func lists(atLimit: String, pastLimit: String, pointer: String, code: String) throws {
        let fits = try SpecReader.inspect(Data(atLimit.utf8))
        #expect(fits.issues == [])
        #expect(fits.draft.map { SpecValidator().validate($0).errors.filter { $0.code.hasPrefix("too-many") } } == [])

        let refused = try SpecReader.inspect(Data(pastLimit.utf8))
        #expect(refused.draft == nil, "refused before decoding")
        #expect(refused.issues.map(\.pointer) == [pointer])
        #expect(refused.issues.first?.code == code)
        #expect(refused.issues.first?.message.contains("At most") == true)
    }

    @Test("the limits count nested toast elements at every level")
    func nestedElements() throws {
        // Given 20 rows of 10 spacers in a column: 1 + 20 × 11 = 221 elements
        let column = #"{"type":"stacked","items":[\#(Array(repeating: Self.row(10), count: 20).joined(separator: ","))]}"#
        let issues = SpecLimits.countIssues(in: try JSON(parsing: Array(#"{"kind":"toast","content":\#(column)}"#.utf8)))
        #expect(issues.map(\.code) == ["too-many-elements"])
        #expect(issues.first?.message.contains("221") == true)
    }

    @Test("a spec of exactly the size limit is read; one byte more is refused before it is parsed")
    func size() throws {
        let spec = #"{"kind":"hud","state":"success"}"#
        let padding = SpecLimits.encodedSpec - spec.utf8.count
        let atLimit = Data((spec + String(repeating: " ", count: padding)).utf8)
        #expect(atLimit.count == SpecLimits.encodedSpec)
        #expect(try SpecReader.inspect(atLimit).issues == [])

        // Not even JSON past the limit: the size is refused first
        let past = Data(String(repeating: "x", count: SpecLimits.encodedSpec + 1).utf8)
        #expect(throws: SpecReader.TooLarge.self) { try SpecReader.inspect(past) }
        do {
            _ = try SpecReader.inspect(past)
        } catch let error as SpecReader.TooLarge {
            #expect(error.issue.code == "spec-too-large")
            #expect(error.issue.pointer == "")
            #expect(error.issue.message.contains("\(SpecLimits.encodedSpec)"))
        }
    }

    @Test("checkSize, inspect's first check alone: a byte order mark is not counted")
    func checkSize() throws {
        let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
        try SpecReader.checkSize(Data(bom + Array(repeating: UInt8(ascii: " "), count: SpecLimits.encodedSpec)))
        #expect(throws: SpecReader.TooLarge.self) {
            try SpecReader.checkSize(Data(bom + Array(repeating: UInt8(ascii: " "), count: SpecLimits.encodedSpec + 1)))
        }
        #expect(throws: SpecReader.TooLarge.self) {
            try SpecReader.checkSize(Data(Array(repeating: UInt8(ascii: " "), count: SpecLimits.encodedSpec + 1)))
        }
    }

    @Test("a parsed spec (a catalog file's) is measured as compact JSON")
    func measuredTree() throws {
        let long = String(repeating: "x", count: SpecLimits.encodedSpec)
        let json = try JSON(parsing: Array(#"{"kind":"hud","state":"success","text":"\#(long)"}"#.utf8))
        guard case .failure(let invalid) = SpecReader.read(json: json) else {
            Issue.record("a spec over the limit was read")
            return
        }
        #expect(invalid.issues.map(\.code) == ["spec-too-large"])
    }

    @Test("the validator holds a spec built in code to the same limits")
    func builtInCode() {
        let actions = (0...SpecLimits.actions).map { AlertSpec.Action(id: "b\($0)", label: "B") }
        let errors = SpecValidator().validate(SpecDraft(body: .alert(AlertSpec.Dialog(title: "t", actions: actions)))).errors
        #expect(errors.map(\.code) == ["too-many-actions"])
        #expect(errors.map(\.pointer) == ["/actions"])
    }

    @Test("ids and alert names are held to their lengths")
    func lengths() throws {
        let long = String(repeating: "p", count: SpecLimits.identifier + 1)
        let card = try #require(
            try SpecReader.read(Data(#"{"kind":"card","pages":[{"id":"a","title":"A","next":"\#(long)"}]}"#.utf8)).get())
        let errors = SpecValidator().validate(card).errors
        #expect(errors.contains { $0.pointer == "/pages/0/next" && $0.code == "text-too-long" }, "\(errors)")
    }
}
