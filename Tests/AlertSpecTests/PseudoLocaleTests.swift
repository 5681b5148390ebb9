import Foundation
import Testing

@testable import AlertSpec

private let rlm: Unicode.Scalar = "\u{200F}"
private let rlo: Unicode.Scalar = "\u{202E}"
private let pdf: Unicode.Scalar = "\u{202C}"

/// `text` without the bidi marks `ar-XB` adds.
private func bare(_ text: String) -> String {
    String(String.UnicodeScalarView(text.unicodeScalars.filter { ![rlm, rlo, pdf].contains($0) }))
}

@Suite("Pseudo-locales: en-XA accents and lengthens, ar-XB forces right to left, placeholders kept")
struct PseudoLocaleTests {
    let accented = PseudoLocale.accented
    let bidi = PseudoLocale.bidi

    @Test("the tags are en-XA and ar-XB, read without regard to case or separator")
    func tags() {
        #expect(PseudoLocale.tags == ["en-XA", "ar-XB"])
        #expect(PseudoLocale(tag: "en-xa") == .accented)
        #expect(PseudoLocale(tag: "AR_XB") == .bidi)
        #expect(PseudoLocale(tag: "en") == nil)
        #expect(PseudoLocale(tag: "en-XB") == nil)
        #expect(PseudoLocale(tag: "en-XA-x") == nil)
    }

    @Test("private-use regions XA to XZ are told from real ones", arguments: [
        ("de-XA", true), ("en-xz", true), ("zh-Hant-XC", true), ("en-XA", true), ("en_xb", true), ("xa", false), ("en-GB", false),
        ("en-XAA", false), ("en", false), ("en-X1", false), ("xa-en", false),
    ])
    func privateUseRegions(tag: String, expected: Bool) {
        #expect(PseudoLocale.hasPrivateUseRegion(tag) == expected)
    }

    @Test("en-XA accents every Latin letter, brackets the text and pads it with words")
    func accentedWord() {
        #expect(accented.transform("Settings") == "[Ŝéţţîñĝš one two]")
        #expect(accented.transform("Leave?") == "[Ļéåṽé¿ one]")
    }

    @Test("en-XA makes a sentence about 40% longer, in whole words", arguments: [
        "OK", "Leave this question?", "What you have written so far will not be saved.",
        String(repeating: "A rather long message about nothing in particular. ", count: 20),
    ])
    func lengthens(text: String) {
        let result = accented.transform(text)
        let added = result.count - text.count - 2  // the brackets
        // At least 40% more (a space and whole words), at most one word past it.
        #expect(Double(added - 1) >= 0.4 * Double(text.count))
        #expect(Double(added - 1) <= 0.4 * Double(text.count) + 9)
        #expect(result.hasSuffix("]"))
        #expect(!result.dropLast().hasSuffix(" "))
    }

    @Test("placeholders survive byte for byte in both pseudo-locales", arguments: [
        "%@", "%1$@", "%2$@", "%'lld", "%lld", "%.2f", "%d", "%%", "%#@messages@", "%2$#@people@", "%arg", "{name}", "{user_1}",
    ])
    func placeholdersKept(placeholder: String) {
        let pattern = "Hello \(placeholder) there"
        let accentedResult = accented.transform(pattern)
        #expect(accentedResult.contains(" \(placeholder) "), "\(accentedResult)")
        #expect(accentedResult.hasPrefix("[Ĥéļļö "))
        let bidiResult = bidi.transform(pattern)
        #expect(bidiResult.unicodeScalars.contains(rlo))
        // The placeholder is not inside a word's marks: its value keeps its own direction.
        #expect(bidiResult.contains("\(String(pdf))\(String(rlm)) \(placeholder) \(String(rlm))\(String(rlo))"), "\(bidiResult.debugDescription)")
        #expect(bare(bidiResult) == pattern)
    }

    @Test("what is not a placeholder is text: a lone %, braces around no name, %s after a space")
    func notPlaceholders() {
        #expect(accented.transform("100% sure") == "[100% šûŕé one two]")
        #expect(accented.transform("{ not } {9x}").hasPrefix("[{ ñöţ } {9ẋ}"))
        #expect(accented.transform("50%") == "[50% one]")
    }

    @Test("filling a transformed pattern inserts the arguments as given, never accented")
    func argumentsUntouched() {
        let filled = TextFormatter.format(accented.transform("%@ sent you %lld messages"), [.string("Ana Lee"), .integer(3)])
        #expect(filled.hasPrefix("[Ana Lee šéñţ ýöû 3 ɱéššåĝéš "))
        let rtl = TextFormatter.format(bidi.transform("Hi %@"), [.string("Ana")])
        #expect(rtl.hasSuffix(" Ana"))
    }

    @Test("ar-XB wraps each word in RLM RLO … PDF RLM and leaves white space between words")
    func bidiWords() {
        let result = bidi.transform("Leave now\tplease")
        let expected = "\u{200F}\u{202E}Leave\u{202C}\u{200F} \u{200F}\u{202E}now\u{202C}\u{200F}\t\u{200F}\u{202E}please\u{202C}\u{200F}"
        #expect(result == expected)
        #expect(bidi.transform(" a ") == " \u{200F}\u{202E}a\u{202C}\u{200F} ")
    }

    @Test("empty text stays empty; a pattern of placeholders only gets brackets and no padding")
    func empty() {
        #expect(accented.transform("") == "")
        #expect(bidi.transform("") == "")
        #expect(accented.transform("%@") == "[%@]")
        #expect(bidi.transform("%@") == "%@")
    }

    @Test("each pseudo-locale's output comes back unchanged: nothing is transformed twice", arguments: [
        "Settings", "Leave this question?", "%@ sent you %lld messages.", "[already bracketed]", "one", "a b", "%@", "Ok one",
    ])
    func idempotent(text: String) {
        for pseudo in PseudoLocale.allCases {
            let once = pseudo.transform(text)
            #expect(pseudo.transform(once) == once, "\(pseudo): \(once.debugDescription)")
        }
    }

    @Test("text that only looks transformed is transformed: unaccented letters inside brackets")
    func lookalike() {
        #expect(accented.transform("[Settings one two]") != "[Settings one two]")
        #expect(bidi.transform("Settings") != "Settings")
    }

    @Test("emoji, combining marks and other scripts pass through whole; the character count holds")
    func otherCharacters() {
        let text = "Cafe\u{0301} 👩‍👩‍👧 日本 e\u{0301}"
        let result = accented.transform(text)
        // A letter a combining mark joins is one character: kept as written, mark included.
        #expect(result.hasPrefix("[Çåƒe\u{0301} 👩‍👩‍👧 日本 e\u{0301} "))
        let body = result.dropFirst().prefix(text.count)
        #expect(body.count == text.count)
        #expect(bare(bidi.transform(text)) == text)
        // A % that a combining mark joins is text, as the formatter reads it.
        #expect(accented.transform("%\u{0301}@") == "[%\u{0301}@ one]")
    }

    @Test("a substitution's form is a fragment: accented, without brackets or padding")
    func fragments() {
        #expect(accented.transformFragment("%arg new messages") == "%arg ñéŵ ɱéššåĝéš")
        #expect(bare(bidi.transformFragment("%arg new")) == "%arg new")
    }

    @Test("every letter maps to one non-ASCII scalar, so accenting keeps the count of characters")
    func accentTable() {
        let letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
        let result = PseudoLocale.accent(Substring(letters))
        #expect(result.count == letters.count)
        #expect(result.unicodeScalars.count == letters.count)
        #expect(result.unicodeScalars.allSatisfy { !$0.isASCII })
    }
}
