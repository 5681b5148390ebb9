import AlertCatalogs
import AlertSpec

// Locale negotiation for every built-in catalog, with the input as an Accept-Language header
// (read as the server reads headers: UTF-8, ill-formed bytes replaced) and as `?locale=` (valid
// UTF-8 only, as MicroHTTP accepts query items).
//
// The answer must be one of the catalog's locales or its source language; every range given
// must be a language range (at most 64 ASCII letters, digits, `-`, `*` or `_`).

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAcceptLanguage(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let bytes = UnsafeRawBufferPointer(start: start, count: count)
    let header = String(decoding: bytes, as: UTF8.self)
    let query = bytes.contains(0) ? nil : String(validating: bytes, as: UTF8.self)

    for range in LocaleNegotiation.ranges(header) where !isLanguageRange(range) {
        fatalError("\"\(range)\" is not a language range")
    }
    for catalog in FuzzCatalogs.catalogs {
        let choices = [
            catalog.locale(for: nil, acceptLanguage: header),
            catalog.locale(for: query, acceptLanguage: nil),
            catalog.locale(for: query, acceptLanguage: header),
        ]
        for locale in choices where locale != catalog.sourceLanguage && !catalog.locales.contains(locale) {
            fatalError("\(catalog.name): \"\(locale)\" is not one of \(catalog.locales)")
        }
    }
    return 0
}

/// A language range: 1 to 64 ASCII letters, digits, `-`, `*` (RFC 4647), or `_` (read as `-`).
func isLanguageRange(_ range: String) -> Bool {
    (1...64).contains(range.utf8.count) && range.utf8.allSatisfy { byte in
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"): true
        case UInt8(ascii: "-"), UInt8(ascii: "*"), UInt8(ascii: "_"): true
        default: false
        }
    }
}

enum FuzzCatalogs {
    static let catalogs: [any AlertCatalog] = {
        do { return try CatalogRegistry.builtInCatalogs() } catch { fatalError("built-in catalogs: \(error)") }
    }()
}
