import MicroHTTP
import Testing

@testable import AlertServer
@testable import HTTPTestSupport
@testable import AlertdTestSupport

@Suite("EntityTag")
struct EntityTagTests {
    @Test("a strong tag is the first 16 bytes of the SHA-256, in lowercase hex, quoted")
    func knownAnswers() {
        // SHA-256("abc") and SHA-256("") from FIPS 180-2 and common test vectors
        #expect(EntityTag.strong(for: Array("abc".utf8)) == #""ba7816bf8f01cfea414140de5dae2223""#)
        #expect(EntityTag.strong(for: []) == #""e3b0c44298fc1c149afbf4c8996fb924""#)
    }

    static let tag = #""0123456789abcdef0123456789abcdef""#

    @Test("If-None-Match names the tag", arguments: [
        tag, "W/" + tag, "*", " \(tag) ", #""a", \#(tag)"#, #"W/"a",W/\#(tag)"#,
        // A member that is not a tag hides nothing after it (a comma may sit inside a tag's
        // quotes, so an unclosed quote is not one of these)
        #"bare, \#(tag)"#, #"W/, \#(tag)"#, ",,\(tag),,",
    ])
    func matching(value: String) {
        #expect(EntityTag.matches(["If-None-Match": value], Self.tag))
        #expect(EntityTag.matches(["if-none-match": value], Self.tag))
    }

    @Test("If-None-Match does not name the tag", arguments: [
        "", " ", "W/", #"""#, #""""#, #""0123456789abcdef0123456789abcde""#,
        #""0123456789abcdef0123456789abcdef0""#, #"0123456789abcdef0123456789abcdef"#,
        // unclosed; the weak prefix is `W/`, upper case
        #""0123456789abcdef0123456789abcdef"#, "w/" + tag,
    ])
    func notMatching(value: String) {
        #expect(!EntityTag.matches(["If-None-Match": value], Self.tag))
    }

    @Test("only If-None-Match is read, not fields with other names")
    func otherFields() {
        #expect(!EntityTag.matches(["If-Match": Self.tag, "If-None-Matches": Self.tag], Self.tag))
    }
}
