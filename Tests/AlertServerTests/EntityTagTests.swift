import MicroHTTP
import Testing

@testable import AlertServer
@testable import HTTPTestSupport
@testable import AlertdTestSupport

@Suite("EntityTag")
struct EntityTagTests {
    @Test("a strong tag is the 128-bit MurmurHash3 (x64, seed 0), in lowercase hex, quoted")
    func knownAnswers() {
        // From the `mmh3` Python package (`mmh3.hash_bytes(data, 0, True).hex()`), which wraps
        // the reference C code: every tail length's branch and whole blocks are covered
        #expect(EntityTag.strong(for: []) == #""00000000000000000000000000000000""#)
        #expect(EntityTag.strong(for: Array("abc".utf8)) == #""6778ad3f3f3f96b4522dca264174a23b""#)
        #expect(
            EntityTag.strong(for: Array("The quick brown fox jumps over the lazy dog".utf8))
                == #""6c1b07bc7bbc4be347939ac4a93c437a""#)
        let long = Array(repeating: Array(0...255), count: 5).flatMap { $0.map(UInt8.init) } + Array("xyz".utf8)
        #expect(EntityTag.strong(for: long) == #""edae985a6b9a3659e64015dc180ab7ce""#)
    }

    @Test("every tail length, 0 to 32 bytes (0, 1, 2, …), hashes as the reference does")
    func tails() {
        // mmh3.hash_bytes(bytes(range(n)), 0, True).hex() for n = 0…32
        let expected = [
            "00000000000000000000000000000000",
            "b55cff6ee5ab10468335f878aa2d6251",
            "4c26ab8dc5f5b37c44e0c26e32013cf0",
            "bee653ef2fa172b8b696b352c25562fb",
            "10afdf0dae94c5e1e2fdc213bd05d6d3",
            "3640f9a6d48cee41f6230c635e15d0f8",
            "3c04f5a4bb3a9866a02c51160b24e057",
            "680d4bca87694cbd87c725bdd4dd3a61",
            "c82f8ed6bde1a747c7dc31ec02eee660",
            "322d816e0fcbb4fbb9ff00021d75de78",
            "63e4589ee825cacf7620ad72c4134325",
            "884f56c7474f7bc5b01b71208dea6569",
            "caa51292e6a75db34653f7ec46f17580",
            "c2415fc5f2d9524bfcd8a6af9e86ff84",
            "646d9035ee33a95fdfc90f387325780d",
            "e92549fd98152347e97dc688ee6d84cd",
            "303f9091b524494445e82f76566490ab",
            "0ec2e79f0ff4765c24a8da9e6b025fc1",
            "7bc4e9bad1e448165febb90b188426ce",
            "6301a36455a465a6dc1faebf60794f95",
            "4b9536577053d2a37a9c7b6c25061f5a",
            "0312d428a03dd1cdcbe7a22dfc0ec56b",
            "712ac127bff3f84562561e6073a33017",
            "db8135156f37a1b941492ab4931c4526",
            "dedfb27562844e73529efbbbab7e7094",
            "cb82e92eb57cbe3bfc9fefbe3354d3a2",
            "726f2202fedc15a5787dc4fcdc680c2e",
            "ed2e594d8802161119b51ddc48197428",
            "3c8105ee62ff14dc8bcb6745bb502066",
            "1acf1815b194e4aa76e1cf8cf7129e64",
            "e301a2380d0869f0196bd2e37f68f322",
            "94d02ca3e1d33d05905400b4ef9ae59e",
            "0f502fb622906dc65111c3346e0a051c"
        ]
        for (count, hex) in expected.enumerated() {
            #expect(EntityTag.strong(for: (0..<count).map { UInt8($0) }) == "\"\(hex)\"", "\(count) bytes")
        }
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
