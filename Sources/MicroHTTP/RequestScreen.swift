import CMicroHTTPD
import Glibc

/// What one request may be, from the server's configuration.
struct RequestLimits: Sendable {
    var maxBodySize: Int
    var maxURLLength: Int
    var maxHeaderCount: Int
    /// Bytes of the request line and header lines.
    var maxHeadSize: Int
}

/// The checks made on a request's head, on the access handler's first call (headers only),
/// before any body is read: control characters in the target, the size limits, the one
/// canonical form of a path, and what could let a request be read one way here and another way
/// by a proxy in front (`Host` or `Authorization` twice, no `Host` in HTTP/1.1, duplicate
/// `Content-Length`, `Content-Length` with `Transfer-Encoding`, a coding other than `chunked`,
/// blanks in a header name). A request refused here is answered at once, and libmicrohttpd
/// closes the connection after the answer.
enum RequestScreen {
    static func check(
        connection: OpaquePointer, url: UnsafePointer<CChar>?, version: UnsafePointer<CChar>?, target: RawTarget?,
        limits: RequestLimits
    ) -> HTTPRequestFailure? {
        if let target, let url, target.hasControl || target.isCut(url: url, version: version) {
            return .invalidEncoding("path or query string")
        }
        if alertd_mhd_request_head_size(connection) > limits.maxHeadSize { return .headTooLarge(limit: limits.maxHeadSize) }
        var head = Head()
        withUnsafeMutablePointer(to: &head) { pointer in
            _ = MHD_get_connection_values_n(connection, .GET_ARGUMENT_KIND, measureQueryItem, pointer)
            _ = MHD_get_connection_values_n(connection, .HEADER_KIND, inspectHeader, pointer)
        }
        let pathLength = url.map { strlen($0) } ?? 0
        if pathLength + head.queryLength > limits.maxURLLength { return .urlTooLong(limit: limits.maxURLLength) }
        if head.headerCount > limits.maxHeaderCount { return .tooManyHeaders(limit: limits.maxHeaderCount) }
        if let url, !isCanonicalPath(url) { return .nonCanonicalPath }
        if head.hosts > 1 { return .badHeader("The Host header is given more than once.") }
        if head.hosts == 0, let version, strcmp(version, "HTTP/1.1") == 0 {
            return .badHeader("An HTTP/1.1 request must carry a Host header.")
        }
        if head.authorizations > 1 { return .badHeader("The Authorization header is given more than once.") }
        if head.blankInName { return .badFraming("A header name holds a blank.") }
        if head.contentLengths > 1 { return .badFraming("Content-Length is given more than once.") }
        if head.transferEncodings > 0 {
            if head.contentLengths > 0 { return .badFraming("Content-Length and Transfer-Encoding are given together.") }
            if head.transferEncodings > 1 || !head.chunked {
                return .badFraming("The only transfer coding accepted is chunked, given once.")
            }
        }
        if let declared = head.declaredLength, declared > limits.maxBodySize { return .bodyTooLarge(limit: limits.maxBodySize) }
        return nil
    }

    /// What the head's fields add up to.
    fileprivate struct Head {
        /// Bytes of the query string's names and values, with a separator each.
        var queryLength = 0
        var headerCount = 0
        var contentLengths = 0
        var declaredLength: Int?
        var transferEncodings = 0
        var chunked = false
        var blankInName = false
        var hosts = 0
        var authorizations = 0
    }
}

private func measureQueryItem(
    cls: UnsafeMutableRawPointer?, kind: MHD_ValueKind, key: UnsafePointer<CChar>?, keySize: Int,
    value: UnsafePointer<CChar>?, valueSize: Int
) -> MHD_Result {
    guard let cls else { return .NO }
    cls.assumingMemoryBound(to: RequestScreen.Head.self).pointee.queryLength += keySize + valueSize + 2
    return .YES
}

private func inspectHeader(
    cls: UnsafeMutableRawPointer?, kind: MHD_ValueKind, key: UnsafePointer<CChar>?, keySize: Int,
    value: UnsafePointer<CChar>?, valueSize: Int
) -> MHD_Result {
    guard let cls, let key else { return .YES }
    let head = cls.assumingMemoryBound(to: RequestScreen.Head.self)
    head.pointee.headerCount += 1
    let name = UnsafeRawBufferPointer(start: key, count: keySize)
    if name.contains(UInt8(ascii: " ")) || name.contains(UInt8(ascii: "\t")) { head.pointee.blankInName = true }
    // The name is compared as bytes: a String of the name and of the value for every header was
    // 12 of an enqueue's 34 strings made from C (callgrind). Only the two framing headers' values
    // are read.
    var text: String { value.map { String(decoding: UnsafeRawBufferPointer(start: $0, count: valueSize), as: UTF8.self) } ?? "" }
    if HTTPHeaders.same(name, "content-length") {
        head.pointee.contentLengths += 1
        head.pointee.declaredLength = Int(text.trimmingBlanks)
    } else if HTTPHeaders.same(name, "transfer-encoding") {
        head.pointee.transferEncodings += 1
        head.pointee.chunked = HTTPHeaders.same(text.trimmingBlanks, "chunked")
    } else if HTTPHeaders.same(name, "host") {
        head.pointee.hosts += 1
    } else if HTTPHeaders.same(name, "authorization") {
        head.pointee.authorizations += 1
    }
    return .YES
}

extension String {
    /// Without leading and trailing spaces and tabs.
    fileprivate var trimmingBlanks: String {
        let bytes = utf8.drop { $0 == 0x20 || $0 == 0x09 }.reversed().drop { $0 == 0x20 || $0 == 0x09 }.reversed()
        return String(decoding: Array(bytes), as: UTF8.self)
    }
}
