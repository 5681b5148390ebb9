import AlertCatalogs
import AlertSpec

// Locale negotiation for every built-in catalog, with the input as an Accept-Language header
// (read as the server reads headers: UTF-8, ill-formed bytes replaced) and as `?locale=` (valid
// UTF-8 only, as MicroHTTP accepts query items).
//
// The answer must be one of the catalog's locales or its source language; ranges must be a
// subset of the header's own tokens.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAcceptLanguage(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let bytes = UnsafeRawBufferPointer(start: start, count: count)
    let header = String(decoding: bytes, as: UTF8.self)
    let query = bytes.contains(0) ? nil : String(validating: bytes, as: UTF8.self)

    for range in LocaleNegotiation.ranges(header) where !header.contains(range) {
        fatalError("range \"\(range)\" is not in the header")
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

enum FuzzCatalogs {
    static let catalogs: [any AlertCatalog] = {
        do { return try CatalogRegistry.builtInCatalogs() } catch { fatalError("built-in catalogs: \(error)") }
    }()
}
