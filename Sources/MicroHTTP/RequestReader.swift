import CMicroHTTPD

/// Turns MHD's view of a request (C strings, parsed arguments and headers) into an HTTPRequest.
enum RequestReader {
    static func read(
        connection: OpaquePointer, method: UnsafePointer<CChar>?, url: UnsafePointer<CChar>?, body: [UInt8]
    ) -> Result<HTTPRequest, HTTPRequestFailure> {
        guard let url, let path = String(validatingCString: url) else {
            return .failure(.invalidEncoding("path"))
        }
        var collected = Collected()
        withUnsafeMutablePointer(to: &collected) { pointer in
            _ = MHD_get_connection_values(connection, .GET_ARGUMENT_KIND, collectQueryItem, pointer)
            _ = MHD_get_connection_values(connection, .HEADER_KIND, collectHeader, pointer)
        }
        if collected.badQuery { return .failure(.invalidEncoding("query string")) }
        let request = HTTPRequest(
            method: method.map { String(cString: $0) } ?? "GET",
            path: path,
            query: collected.query,
            headers: collected.headers,
            body: body)
        return .success(request)
    }

    fileprivate struct Collected {
        var query: [(name: String, value: String?)] = []
        var headers = HTTPHeaders()
        var badQuery = false
    }
}

private func collectQueryItem(
    cls: UnsafeMutableRawPointer?, kind: MHD_ValueKind, key: UnsafePointer<CChar>?, value: UnsafePointer<CChar>?
) -> MHD_Result {
    guard let cls, let key else { return .YES }
    let collected = cls.assumingMemoryBound(to: RequestReader.Collected.self)
    guard let name = String(validatingCString: key) else {
        collected.pointee.badQuery = true
        return .NO
    }
    var text: String?
    if let value {
        guard let decoded = String(validatingCString: value) else {
            collected.pointee.badQuery = true
            return .NO
        }
        text = decoded
    }
    collected.pointee.query.append((name: name, value: text))
    return .YES
}

private func collectHeader(
    cls: UnsafeMutableRawPointer?, kind: MHD_ValueKind, key: UnsafePointer<CChar>?, value: UnsafePointer<CChar>?
) -> MHD_Result {
    guard let cls, let key else { return .YES }
    let collected = cls.assumingMemoryBound(to: RequestReader.Collected.self)
    collected.pointee.headers.add(String(cString: key), value.map { String(cString: $0) } ?? "")
    return .YES
}
