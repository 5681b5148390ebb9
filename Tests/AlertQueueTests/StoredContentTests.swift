import AlertSpec
import Foundation
import Testing

@testable import AlertQueue

@Suite("Stored content: the JSON text every store keeps, read back")
struct StoredContentTests {
    @Test("an alert's content reads back as it was stored, parameters of every kind")
    func alertRoundTrip() throws {
        let content = QueueContent.alert(
            id: "app/newMessages",
            parameters: ["count": .integer(3), "sender": .string("Ann \"A\" é"), "ratio": .number(2.5), "urgent": .boolean(true)])
        let text = try StoredContent.json(content)
        #expect(text == #"{"alert":"app/newMessages","params":{"count":3,"ratio":2.5,"sender":"Ann \"A\" é","urgent":true}}"#)
        #expect(try StoredContent.content(json: text) == content)
    }

    @Test("texts are read as the decoder reads them", arguments: [
        (#"{"alert":"app/saved","params":{}}"#, QueueContent.alert(id: "app/saved", parameters: [:])),
        (#"{"alert":"app/saved"}"#, .alert(id: "app/saved", parameters: [:])),
        (#"{"alert":"app/saved","params":null}"#, .alert(id: "app/saved", parameters: [:])),
        (#"{"params":{"n":2.0},"alert":"app/x"}"#, .alert(id: "app/x", parameters: ["n": .integer(2)])),
        (#"{"alert":"app/x","params":{"n":1e300,"b":false}}"#, .alert(id: "app/x", parameters: ["n": .number(1e300), "b": .boolean(false)])),
    ])
    func reads(text: String, expected: QueueContent) throws {
        #expect(try StoredContent.content(json: text) == expected)
    }

    @Test("a spec's content reads back")
    func specRoundTrip() throws {
        let draft = try SpecReader.read(Data(##"{"kind":"hud","state":"progress","progress":0.5}"##.utf8)).get()
        let text = try StoredContent.json(.spec(draft))
        #expect(text == #"{"spec":"# + String(decoding: try OrderedJSONEncoder().encode(draft), as: UTF8.self) + "}")
        #expect(try StoredContent.content(json: text) == .spec(draft))
    }

    @Test("text no version wrote is unreadable", arguments: [
        #"{"alert":7}"#, #"{"alert":"app/x","params":{"n":[1]}}"#, #"{"neither":true}"#, "not json",
    ])
    func unreadable(text: String) {
        #expect(throws: (any Error).self) { try StoredContent.content(json: text) }
    }

    @Test("the content cache keeps at insert only what its text reads back as", arguments: [
        QueueContent.alert(id: "app/newMessages", parameters: ["count": .integer(3), "sender": .string("Ann")]),
        .alert(id: "app/x", parameters: ["min": .integer(.min), "max": .integer(.max), "yes": .boolean(true), "no": .boolean(false)]),
        .alert(id: "app/x", parameters: ["s": .string("\"\\/\u{0}\u{1F}\n\t é e\u{301} 🇫🇷 \u{2028}"), "empty": .string("")]),
        .alert(id: "app/ü \"x\"", parameters: ["naïve": .string("ok")]),
        .alert(id: "app/saved", parameters: [:]),
    ])
    func keptAtInsert(content: QueueContent) throws {
        #expect(ContentCache.readsBackAsItself(content))
        let cache = ContentCache()
        let text = try cache.json(content)
        // What the cache kept (a hit) is what reading the text gives (a miss).
        #expect(try StoredContent.content(json: text) == content)
        #expect(try cache.content(json: text) == StoredContent.content(json: text))
    }

    @Test("numbers and specs are not kept at insert: their text may read back otherwise")
    func notKeptAtInsert() throws {
        #expect(!ContentCache.readsBackAsItself(.alert(id: "app/x", parameters: ["n": .number(2.0)])))
        #expect(try StoredContent.content(json: StoredContent.json(.alert(id: "app/x", parameters: ["n": .number(2.0)])))
            == .alert(id: "app/x", parameters: ["n": .integer(2)]))
        let draft = try SpecReader.read(Data(##"{"kind":"hud","state":"progress","progress":0.5}"##.utf8)).get()
        #expect(!ContentCache.readsBackAsItself(.spec(draft)))
    }

    @Test("a content kept under a key (a ticket) is found by that key, its text not read again")
    func keptUnderAKey() throws {
        let cache = ContentCache()
        let content = QueueContent.alert(id: "app/newMessages", parameters: ["count": .integer(3), "sender": .string("Ann")])
        let text = try cache.json(content, key: "ticket-1")
        #expect(try cache.content(json: "{not the text}", key: "ticket-1") == content)
        // Under the key only, not under its text: looked up by the text, the text is read.
        #expect(throws: (any Error).self) { try cache.content(json: "{not the text}", key: text) }
        #expect(try cache.content(json: text, key: "ticket-2") == content)
        // A hit does not read the text at all; a miss reads it once.
        var reads = 0
        #expect(try cache.content(key: "ticket-1") { reads += 1; return "{not the text}" } == content)
        #expect(try cache.content(key: "ticket-3") { reads += 1; return text } == content)
        #expect(reads == 1)
    }
}
