import AlertServer
import CMicroHTTPD
import FuzzSupport

@testable import MicroHTTP

// GET /v1/catalogs/<input>: the input is the rest of the request target, such as
// `app/alerts/newMessages?count=2&sender=Kim&locale=fr`. The query string is split and
// percent-decoded as libmicrohttpd 0.9.75 does it (its own MHD_http_unescape), each item goes
// through MicroHTTP's RequestReader.queryItem (UTF-8, no NUL), and the request through the
// router: render options, ParameterLimits, the typed parameters (ParameterDecoder), rendering.
//
// Any query must get 200 or a 4xx problem; a 5xx or a trap is a bug.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzQueryParameters(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let target = Array(UnsafeRawBufferPointer(start: start, count: count))
    // A request line holds no NUL, space or line break: libmicrohttpd stops or refuses there.
    guard !target.contains(where: { $0 == 0 || $0 == 0x20 || $0 == 0x0A || $0 == 0x0D }) else { return 0 }
    let mark = target.firstIndex(of: UInt8(ascii: "?"))
    // The path as RequestReader reads it: a C string (up to a NUL a %00 made), UTF-8.
    let decodedPath = unescaped(target[..<(mark ?? target.endIndex)], plusAsSpace: false).prefix { $0 != 0 }
    guard let path = String(validating: decodedPath, as: UTF8.self) else { return 0 }
    var query: [(name: String, value: String?)] = []
    if let mark {
        for (name, value) in MHDQuery.arguments(target[(mark + 1)...]) {
            let item = name.withUnsafeBytes { name in
                value.map { value in value.withUnsafeBytes { RequestReader.queryItem(name: name, value: $0) } }
                    ?? RequestReader.queryItem(name: name, value: nil)
            }
            // MicroHTTP refuses the whole request (400) for one unreadable item.
            guard let item else { return 0 }
            query.append(item)
        }
    }
    let request = HTTPRequest(method: "GET", path: "/v1/catalogs/" + path, query: query)
    guard case .found(.now, _, _) = FuzzService.service.router.match(method: request.method, path: request.path) else { return 0 }
    let response = FuzzService.service.respond(to: request)
    if response.status >= 500 {
        fatalError("\(response.status) for a client's query: \(String(decoding: response.body, as: UTF8.self))")
    }
    return 0
}

/// libmicrohttpd's splitting of the query string (MHD_parse_arguments_ in 0.9.75): items at
/// `&`, a name and a value at the first `=` (no `=`: no value), `+` read as a space, then
/// MHD_http_unescape on each; an empty query string has no item.
enum MHDQuery {
    static func arguments(_ query: ArraySlice<UInt8>) -> [(name: [UInt8], value: [UInt8]?)] {
        var items: [(name: [UInt8], value: [UInt8]?)] = []
        var rest = query[...]
        while let first = rest.first, first != 0 {
            let amper = rest.firstIndex(of: UInt8(ascii: "&"))
            let item = rest[..<(amper ?? rest.endIndex)]
            if let equals = item.firstIndex(of: UInt8(ascii: "=")) {
                items.append((unescaped(item[..<equals]), unescaped(item[(equals + 1)...])))
            } else {
                items.append((unescaped(item), nil))
            }
            guard let amper else { break }
            rest = rest[(amper + 1)...]
        }
        return items
    }
}

/// libmicrohttpd's own percent-decoding (MHD_http_unescape), after reading `+` as a space in
/// query items (MHD_unescape_plus; not in the path).
func unescaped(_ bytes: ArraySlice<UInt8>, plusAsSpace: Bool = true) -> [UInt8] {
    var text = bytes.map { CChar(bitPattern: plusAsSpace && $0 == UInt8(ascii: "+") ? UInt8(ascii: " ") : $0) }
    text.append(0)
    let length = text.withUnsafeMutableBufferPointer { MHD_http_unescape($0.baseAddress!) }
    return text[..<length].map { UInt8(bitPattern: $0) }
}
