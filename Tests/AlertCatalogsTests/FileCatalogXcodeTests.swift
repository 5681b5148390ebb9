import AlertSpec
import Foundation
import Testing

@testable import AlertCatalogs

/// An alert whose texts are String Catalog keys as an iOS app's code would use them, one with
/// format specifiers filled from the alert's parameters.
private let feed = """
    sourceLanguage: en
    alerts:
      digest:
        kind: alert
        title: {text: "%lld posts from %lld people", arguments: [posts, people]}
        message: Tap to open
        actions:
          - {id: later, label: {system: notNow}, role: cancel}
          - {id: open, label: Open in app, role: primary}
    examples:
      digest: {posts: 2, people: 1}
    """

/// Its String Catalog, as Xcode writes one: substitutions without `argNum`, device variations,
/// a `needs_review` value, a `new` one, and an App Intents entry no alert uses whose German
/// translation leaves a placeholder out.
private let feedStrings = """
    {
      "sourceLanguage" : "en",
      "strings" : {
        "${toggle} Emoji Search ${state}" : {
          "localizations" : {
            "de" : { "stringUnit" : { "state" : "translated", "value" : "Emoji-Suche ${state}" } }
          }
        },
        "%lld posts from %lld people" : {
          "localizations" : {
            "en" : {
              "stringUnit" : { "state" : "translated", "value" : "%#@posts@ from %#@people@" },
              "substitutions" : {
                "people" : {
                  "formatSpecifier" : "lld",
                  "variations" : { "plural" : {
                    "one" : { "stringUnit" : { "state" : "translated", "value" : "%arg person" } },
                    "other" : { "stringUnit" : { "state" : "translated", "value" : "%arg people" } }
                  } }
                },
                "posts" : {
                  "formatSpecifier" : "lld",
                  "variations" : { "plural" : {
                    "one" : { "stringUnit" : { "state" : "translated", "value" : "%arg post" } },
                    "other" : { "stringUnit" : { "state" : "translated", "value" : "%arg posts" } }
                  } }
                }
              }
            },
            "de" : {
              "stringUnit" : { "state" : "translated", "value" : "%#@posts@ von %#@people@" },
              "substitutions" : {
                "people" : {
                  "formatSpecifier" : "lld",
                  "variations" : { "plural" : {
                    "one" : { "stringUnit" : { "state" : "translated", "value" : "%arg Person" } },
                    "other" : { "stringUnit" : { "state" : "translated", "value" : "%arg Personen" } }
                  } }
                },
                "posts" : {
                  "formatSpecifier" : "lld",
                  "variations" : { "plural" : {
                    "one" : { "stringUnit" : { "state" : "translated", "value" : "%arg Beitrag" } },
                    "other" : { "stringUnit" : { "state" : "translated", "value" : "%arg Beiträge" } }
                  } }
                }
              }
            }
          }
        },
        "Open in app" : {
          "localizations" : {
            "de" : { "stringUnit" : { "state" : "new", "value" : "" } },
            "ja" : { "stringUnit" : { "state" : "needs_review", "value" : "アプリで開く" } }
          }
        },
        "Tap to open" : {
          "localizations" : {
            "de" : { "variations" : { "device" : {
              "mac" : { "stringUnit" : { "state" : "translated", "value" : "Zum Öffnen klicken" } },
              "other" : { "stringUnit" : { "state" : "translated", "value" : "Zum Öffnen tippen" } }
            } } },
            "en" : { "variations" : { "device" : {
              "mac" : { "stringUnit" : { "state" : "translated", "value" : "Click to open" } },
              "other" : { "stringUnit" : { "state" : "translated", "value" : "Tap to open" } }
            } } }
          }
        }
      },
      "version" : "1.0"
    }
    """

@Suite("File catalogs read their String Catalog as Xcode builds it")
struct FileCatalogXcodeTests {
    let folder: FixtureFolder

    init() throws { folder = try FixtureFolder() }

    func catalog(_ strings: String = feedStrings) throws -> FileCatalog {
        let file = try folder.write("feed.yaml", feed)
        try folder.write("feed.xcstrings", strings)
        return try FileCatalog(contentsOf: file)
    }

    func digest(_ catalog: FileCatalog, _ parameters: [String: ParameterValue], _ locale: String, _ device: Device = .other) throws -> AlertSpec.Dialog {
        try dialog(of: try catalog.render(type: "digest", parameters: parameters, in: catalog.context(for: locale, device: device)))
    }

    @Test("format specifiers are filled from typed parameters, through substitutions without argNum")
    func formatted() throws {
        let catalog = try catalog()
        #expect(catalog.entries.first?.parameters == [
            ParameterInfo(name: "people", type: .integer, required: true), ParameterInfo(name: "posts", type: .integer, required: true),
        ])
        #expect(try digest(catalog, ["posts": .integer(1), "people": .integer(3)], "en").title == "1 post from 3 people")
        // Query items arrive as text and are read as the integers the specifiers take.
        #expect(try digest(catalog, ["posts": .string("5"), "people": .string("1")], "de").title == "5 Beiträge von 1 Person")
        #expect(throws: ParameterError.self) { try digest(catalog, ["posts": .string("many"), "people": .integer(1)], "en") }
    }

    @Test("each device gets its variation; needs_review ships; new falls back to the source text")
    func variations() throws {
        let catalog = try catalog()
        #expect(catalog.variesByDevice)
        let values: [String: ParameterValue] = ["posts": .integer(2), "people": .integer(2)]
        #expect(try digest(catalog, values, "de", .mac).message == "Zum Öffnen klicken")
        #expect(try digest(catalog, values, "de", .iphone).message == "Zum Öffnen tippen")
        #expect(try digest(catalog, values, "en", .mac).message == "Click to open")
        #expect(try digest(catalog, values, "de").actions.map(\.label) == ["Nicht jetzt", "Open in app"])
        #expect(try digest(catalog, values, "ja").actions.map(\.label) == ["今はしない", "アプリで開く"])
    }

    @Test("an entry no alert uses may be odd: the catalog loads and notes it once")
    func unusedEntries() throws {
        let broken = feedStrings.replacingOccurrences(of: #""Emoji-Suche ${state}""#, with: #""Emoji-Suche %@ %lld""#)
        let catalog = try catalog(broken)
        let note = try #require(catalog.warnings.first { $0.code == "unused-translation-problems" })
        #expect(note.message.contains("${toggle} Emoji Search ${state}: de: placeholders"))
    }

    @Test("a used entry whose translation does not fit names the file, the key, the locale and the reason")
    func usedEntry() throws {
        let broken = feedStrings.replacingOccurrences(of: #""%#@posts@ von %#@people@""#, with: #""%#@posts@ von %@""#)
        let error = #expect(throws: CatalogFileError.self) { try catalog(broken) }
        let problem = try #require(error?.problems.first)
        #expect(problem.entry == "%lld posts from %lld people")
        #expect(problem.pointer == "de")
        #expect(problem.message.hasPrefix("feed.xcstrings: placeholders"))
    }

    @Test("a formatted text needs as many parameters as its specifiers, and a system word must exist")
    func badTemplates() throws {
        let file = try folder.write("bad.yaml", """
            alerts:
              digest:
                kind: alert
                title: {text: "%lld posts from %lld people", arguments: [posts]}
                actions: [{id: later, label: {system: maybeLater}, role: cancel}]
            """)
        let error = #expect(throws: CatalogFileError.self) { try FileCatalog(contentsOf: file) }
        let codes = Set(error?.problems.map(\.code) ?? [])
        #expect(codes.isSuperset(of: ["invalid-formatted-text", "unknown-system-word"]), "\(error?.problems ?? [])")
    }

    @Test("Critical Moments' OK and Cancel follow the client's language without a String Catalog of the file's own")
    func criticalMomentsWords() throws {
        let file = try folder.write(
            "moments.json", #"{"ask": {"actionType": "alert", "title": "Rate us?", "showCancelButton": true}}"#)
        let catalog = try FileCatalog(contentsOf: file)
        let context = catalog.context(for: "ja")
        #expect(context.locale == "en")
        #expect(context.systemLocale == "ja")
        let japanese = try dialog(of: try catalog.render(type: "ask", parameters: [:], in: context))
        #expect(japanese.title == "Rate us?")
        #expect(Set(japanese.actions.map(\.label)) == ["OK", "キャンセル"])
        let spanish = try dialog(of: try catalog.render(type: "ask", parameters: [:], in: catalog.context(for: nil, acceptLanguage: "es-MX")))
        #expect(Set(spanish.actions.map(\.label)) == ["OK", "Cancelar"])
    }
}
