import PostgresNIO

/// A one-dimensional array parameter (`text[]`, `bigint[]`, `float8[]`, `boolean[]`) written in
/// PostgreSQL's binary array format here, element by element, with no NULLs: what
/// postgres-nio's `Array` encoding writes, in a loop specialized for its element.
///
/// Every batch of enqueues sends its items as thirteen such arrays (`ItemRow.insert`), one
/// element per item. Through postgres-nio's generic encoding each element cost about 1,200
/// instructions, 14,700 an enqueue; this way 7,400 (callgrind, `make bench-instructions` with
/// `STORE` on PostgreSQL): CPU of the instance, which the database shares on one machine.
/// `BinaryArrayTests` checks that both write the same bytes.
///
/// ```swift
/// let query: PostgresQuery = "SELECT alertd.insert_items(\(BinaryArray(tickets))::text[], …)"
/// ```
struct BinaryArray<Element: BinaryArrayElement>: PostgresNonThrowingEncodable {
    let elements: [Element]

    init(_ elements: [Element]) {
        self.elements = elements
    }

    static var psqlType: PostgresDataType { Element.arrayType }
    static var psqlFormat: PostgresFormat { .binary }

    /// The whole array made in a byte array first, then written to `buffer` at once: each of
    /// `ByteBuffer`'s writes costs about 200 instructions (not inlined across modules), and an
    /// element takes two.
    func encode<JSONEncoder: PostgresJSONEncoder>(into buffer: inout ByteBuffer, context: PostgresEncodingContext<JSONEncoder>) {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(20 + elements.count * (4 + Element.typicalSize))
        // Dimensions (none for an empty array), a flag for NULLs (none), the element's type; then
        // the one dimension's length and lower bound (1); then each element, its length first.
        bytes.appendBigEndian(Int32(elements.isEmpty ? 0 : 1))
        bytes.appendBigEndian(Int32(0))
        bytes.appendBigEndian(Element.elementType.rawValue)
        if !elements.isEmpty {
            bytes.appendBigEndian(Int32(elements.count))
            bytes.appendBigEndian(Int32(1))
            for element in elements {
                element.write(to: &bytes)
            }
        }
        buffer.writeBytes(bytes)
    }
}

/// An element of a `BinaryArray`: its types, and its binary form written with its length.
protocol BinaryArrayElement {
    static var elementType: PostgresDataType { get }
    static var arrayType: PostgresDataType { get }
    /// About how many bytes an element takes, to make room for them.
    static var typicalSize: Int { get }
    /// Appends the element's length (4 bytes), then the element.
    func write(to bytes: inout [UInt8])
}

extension String: BinaryArrayElement {
    static var elementType: PostgresDataType { .text }
    static var arrayType: PostgresDataType { .textArray }
    static var typicalSize: Int { 32 }

    func write(to bytes: inout [UInt8]) {
        var text = self
        text.withUTF8 { utf8 in
            bytes.appendBigEndian(Int32(utf8.count))
            bytes.append(contentsOf: utf8)
        }
    }
}

/// An element of eight bytes (`bigint`, `float8`): its bits, most significant first.
protocol EightByteElement: BinaryArrayElement {
    var bits: UInt64 { get }
}

extension EightByteElement {
    static var typicalSize: Int { 8 }

    func write(to bytes: inout [UInt8]) {
        bytes.appendBigEndian(Int32(8))
        bytes.appendBigEndian(bits)
    }
}

extension Int64: EightByteElement {
    static var elementType: PostgresDataType { .int8 }
    static var arrayType: PostgresDataType { .int8Array }
    var bits: UInt64 { UInt64(bitPattern: self) }
}

extension Double: EightByteElement {
    static var elementType: PostgresDataType { .float8 }
    static var arrayType: PostgresDataType { .float8Array }
    var bits: UInt64 { bitPattern }
}

extension Bool: BinaryArrayElement {
    static var elementType: PostgresDataType { .bool }
    static var arrayType: PostgresDataType { .boolArray }
    static var typicalSize: Int { 1 }

    func write(to bytes: inout [UInt8]) {
        bytes.appendBigEndian(Int32(1))
        bytes.append(self ? 1 : 0)
    }
}

extension [UInt8] {
    /// Appends `value`'s bytes, most significant first (PostgreSQL's binary formats).
    fileprivate mutating func appendBigEndian<Value: FixedWidthInteger>(_ value: Value) {
        Swift.withUnsafeBytes(of: value.bigEndian) { append(contentsOf: $0) }
    }
}
