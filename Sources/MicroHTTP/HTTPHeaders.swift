/// An ordered list of header fields with case-insensitive lookup.
///
/// Requests carry a handful of headers, so a linear scan beats hashing here and keeps the
/// original order and spelling for anything that echoes them.
public struct HTTPHeaders: Sendable, Equatable, Sequence, ExpressibleByDictionaryLiteral {
    public private(set) var fields: [(name: String, value: String)]

    public init() { fields = [] }

    public init(dictionaryLiteral elements: (String, String)...) {
        fields = elements.map { (name: $0.0, value: $0.1) }
    }

    /// The first value of the named field, or nil.
    public subscript(name: String) -> String? {
        for field in fields where Self.same(field.name, name) {
            return field.value
        }
        return nil
    }

    /// Appends a field, keeping any existing field of that name.
    public mutating func add(_ name: String, _ value: String) {
        fields.append((name: name, value: value))
    }

    /// Replaces every field of that name with one.
    public mutating func set(_ name: String, _ value: String) {
        fields.removeAll { Self.same($0.name, name) }
        fields.append((name: name, value: value))
    }

    public func makeIterator() -> IndexingIterator<[(name: String, value: String)]> {
        fields.makeIterator()
    }

    public static func == (lhs: HTTPHeaders, rhs: HTTPHeaders) -> Bool {
        lhs.fields.count == rhs.fields.count
            && zip(lhs.fields, rhs.fields).allSatisfy { Self.same($0.name, $1.name) && $0.value == $1.value }
    }

    /// Whether `bytes` are `lowercased` (ASCII: small letters, digits, punctuation) with their
    /// letters in any case: a header name, a media type or an auth scheme compared without
    /// making a String of them.
    public static func same(_ bytes: UnsafeRawBufferPointer, _ lowercased: StaticString) -> Bool {
        lowercased.withUTF8Buffer { name in
            guard bytes.count == name.count else { return false }
            for (p, q) in zip(bytes, name) where p != q {
                guard p | 0x20 == q, q >= UInt8(ascii: "a"), q <= UInt8(ascii: "z") else { return false }
            }
            return true
        }
    }

    /// ASCII case-insensitive comparison (header names are ASCII tokens), over the bytes: a
    /// `zip` of the two `utf8` views cost about 140 instructions a byte, a third of the routing
    /// and authorization of an enqueue (`make bench-instructions`).
    static func same(_ a: String, _ b: String) -> Bool {
        guard a.utf8.count == b.utf8.count else { return false }
        var a = a, b = b
        return a.withUTF8 { x in
            b.withUTF8 { y in
                for index in x.indices where x[index] != y[index] {
                    let p = x[index] | 0x20
                    guard p == y[index] | 0x20, p >= UInt8(ascii: "a"), p <= UInt8(ascii: "z") else { return false }
                }
                return true
            }
        }
    }

    /// Whether both lists are one storage: then they hold the same fields (while one of them
    /// is kept, the storage cannot be changed in place or reused). A cheap test of equality for
    /// lists made once and handed out many times; false says nothing.
    func hasSameStorage(as other: HTTPHeaders) -> Bool {
        fields.withUnsafeBufferPointer { mine in
            other.fields.withUnsafeBufferPointer { theirs in mine.baseAddress == theirs.baseAddress }
        }
    }
}
