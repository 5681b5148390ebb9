import CMicroHTTPD

/// Turns MHD's view of a request (C strings, parsed arguments and headers) into an HTTPRequest.
enum RequestReader {
    static func read(
        connection: OpaquePointer, method: UnsafePointer<CChar>?, url: UnsafePointer<CChar>?, body: [UInt8],
        requestID: String = ""
    ) -> Result<HTTPRequest, HTTPRequestFailure> {
        guard let url, let path = String(validatingCString: url) else {
            return .failure(.invalidEncoding("path"))
        }
        var collected = Collected()
        withUnsafeMutablePointer(to: &collected) { pointer in
            _ = MHD_get_connection_values_n(connection, .GET_ARGUMENT_KIND, collectQueryItem, pointer)
            _ = MHD_get_connection_values_n(connection, .HEADER_KIND, collectHeader, pointer)
        }
        if collected.badQuery { return .failure(.invalidEncoding("query string")) }
        let request = HTTPRequest(
            method: method.map { String(cString: $0) } ?? "GET",
            path: path,
            query: collected.query,
            headers: collected.headers,
            body: body,
            requestID: requestID)
        return .success(request)
    }

    /// One query item as libmicrohttpd hands it over (name and value percent-decoded, a bare
    /// `?flag` without a value), or nil when either is not UTF-8 or holds a NUL byte.
    static func queryItem(name: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer?) -> (name: String, value: String?)? {
        guard let name = text(name) else { return nil }
        guard let value else { return (name, nil) }
        guard let valueText = text(value) else { return nil }
        return (name, valueText)
    }

    fileprivate struct Collected {
        var query: [(name: String, value: String?)] = []
        var headers = HTTPHeaders()
        var badQuery = false
    }
}

/// The text of a C string of known size: nil when it is not UTF-8 or holds a NUL byte (which
/// a C string would silently cut at: `sender=a%00b` must not read as `a`).
private func text(_ bytes: UnsafeRawBufferPointer) -> String? {
    var ascii = true
    for byte in bytes {
        if byte == 0 { return nil }
        if byte >= 0x80 { ascii = false }
    }
    let utf8 = bytes.assumingMemoryBound(to: UInt8.self)
    // ASCII is valid UTF-8 as it is. `String(validating:as:)` on the raw buffer looked up generic
    // metadata on every call: a third of reading a query item (perf, render hits).
    return ascii ? String(decoding: utf8, as: UTF8.self) : String(validating: utf8, as: UTF8.self)
}

private func collectQueryItem(
    cls: UnsafeMutableRawPointer?, kind: MHD_ValueKind, key: UnsafePointer<CChar>?, keySize: Int,
    value: UnsafePointer<CChar>?, valueSize: Int
) -> MHD_Result {
    guard let cls, let key else { return .YES }
    let collected = cls.assumingMemoryBound(to: RequestReader.Collected.self)
    let item = RequestReader.queryItem(
        name: UnsafeRawBufferPointer(start: key, count: keySize),
        value: value.map { UnsafeRawBufferPointer(start: $0, count: valueSize) })
    guard let item else {
        collected.pointee.badQuery = true
        return .NO
    }
    collected.pointee.query.append(item)
    return .YES
}

private func collectHeader(
    cls: UnsafeMutableRawPointer?, kind: MHD_ValueKind, key: UnsafePointer<CChar>?, keySize: Int,
    value: UnsafePointer<CChar>?, valueSize: Int
) -> MHD_Result {
    guard let cls, let key else { return .YES }
    let collected = cls.assumingMemoryBound(to: RequestReader.Collected.self)
    let name = String(decoding: UnsafeRawBufferPointer(start: key, count: keySize), as: UTF8.self)
    let field = value.map { String(decoding: UnsafeRawBufferPointer(start: $0, count: valueSize), as: UTF8.self) } ?? ""
    collected.pointee.headers.add(name, field)
    return .YES
}
