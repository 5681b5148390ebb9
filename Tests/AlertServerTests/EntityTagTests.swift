import Testing

@testable import AlertServer

@Suite("EntityTag")
struct EntityTagTests {
    @Test("a strong tag is the first 16 bytes of the SHA-256, in lowercase hex, quoted")
    func knownAnswers() {
        // SHA-256("abc") and SHA-256("") from FIPS 180-2 and common test vectors
        #expect(EntityTag.strong(for: Array("abc".utf8)) == #""ba7816bf8f01cfea414140de5dae2223""#)
        #expect(EntityTag.strong(for: []) == #""e3b0c44298fc1c149afbf4c8996fb924""#)
    }
}
