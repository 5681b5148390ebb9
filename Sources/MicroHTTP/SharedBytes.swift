/// Bytes that many responses send without copying them: a cached rendering, a listing.
///
/// libmicrohttpd is handed a pointer into the bytes and a retain of this object, which it
/// releases when it is done with the response (`MHD_create_response_from_buffer_with_free_callback_cls`),
/// so the bytes outlive every response that sends them, even when the cache that made them has
/// dropped them meanwhile.
///
/// ```swift
/// let listing = SharedBytes(try encoder.encode(catalogs))
/// return HTTPResponse(status: 200, headers: ["Content-Type": "application/json"], body: listing)
/// ```
public final class SharedBytes: Sendable, Equatable {
    /// Allocated once, filled in `init`, never written again, freed in `deinit`.
    nonisolated(unsafe) private let storage: UnsafeMutableRawBufferPointer

    public init(_ bytes: some Collection<UInt8>) {
        storage = .allocate(byteCount: bytes.count, alignment: 1)
        // One memcpy for contiguous bytes (an Array, a Data): called from other modules, the
        // generic element-by-element copy is not specialised, and cost a fifth of a render.
        let copied: Void? = bytes.withContiguousStorageIfAvailable { storage.copyMemory(from: UnsafeRawBufferPointer($0)) }
        if copied == nil { _ = storage.initializeMemory(as: UInt8.self, from: bytes) }
    }

    /// No bytes: the body of an answer that has none but is sent again and again, such as a
    /// 304 (see `ConnectionResponse`).
    public static let empty = SharedBytes([UInt8]())

    deinit { storage.deallocate() }

    public var count: Int { storage.count }

    /// A copy of the bytes.
    public var array: [UInt8] { Array(UnsafeRawBufferPointer(storage)) }

    /// Runs `body` with the bytes (valid only inside it, like `Array.withUnsafeBytes`).
    public func withUnsafeBytes<R, E: Error>(_ body: (UnsafeRawBufferPointer) throws(E) -> R) throws(E) -> R {
        try body(UnsafeRawBufferPointer(storage))
    }

    /// The start of the bytes, for libmicrohttpd: valid while this object lives.
    var baseAddress: UnsafeMutableRawPointer? { storage.baseAddress }

    public static func == (lhs: SharedBytes, rhs: SharedBytes) -> Bool {
        lhs === rhs || UnsafeRawBufferPointer(lhs.storage).elementsEqual(UnsafeRawBufferPointer(rhs.storage))
    }
}
