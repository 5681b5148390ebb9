/// The output and the containers still open, innermost last. A container opened by the value at
/// depth `d` is `open[d]`; writing into it first closes every deeper one.
final class JSONWriter {
    struct Frame {
        var isObject: Bool
        var count = 0
        /// Who opened it: an encoder's id, so the same encoder asking again continues it.
        var owner: Int
    }

    var output = JSONBytes(capacity: 1024)
    private(set) var open: [Frame] = []
    private var lastOwner = 0
    /// Set when a container was asked for after its parent was finished (the call cannot throw).
    private(set) var outOfOrder = false
    /// Whether an absent optional (`encodeIfPresent(nil)`) is written as `null` rather than left out.
    let writesAbsentOptionals: Bool

    init(writesAbsentOptionals: Bool = false) {
        self.writesAbsentOptionals = writesAbsentOptionals
    }

    func makeOwner() -> Int {
        lastOwner += 1
        return lastOwner
    }

    /// The integer types other than `Int`, found by metatype as the scalars above are.
    private static let otherIntegers: [Any.Type] = [
        Int8.self, Int16.self, Int32.self, Int64.self, UInt.self, UInt8.self, UInt16.self, UInt32.self, UInt64.self,
    ]

    /// Writes `value` where a value is expected at `depth`: scalars at once, others through
    /// their `encode(to:)`. One that writes nothing is `{}`, as Foundation's encoder has it.
    func value<T: Encodable>(_ value: T, depth: Int, path: () -> CodingPath) throws {
        // Scalars by their static type: comparing metatypes is a pointer comparison, where a
        // dynamic cast took 2-3 % of a render; the bit cast is then to the value's own type.
        if T.self == String.self {
            JSONWriter.writeQuoted(unsafeBitCast(value, to: String.self), to: &output)
        } else if T.self == Int.self {
            write(unsafeBitCast(value, to: Int.self))
        } else if T.self == Bool.self {
            write(unsafeBitCast(value, to: Bool.self))
        } else if T.self == Double.self {
            try write(unsafeBitCast(value, to: Double.self)) { path().keys }
        } else if T.self == Float.self {
            try write(Double(unsafeBitCast(value, to: Float.self))) { path().keys }
        } else if T.self == EncodedJSON.self {
            output.append(unsafeBitCast(value, to: EncodedJSON.self).bytes)
        } else if Self.otherIntegers.contains(where: { $0 == T.self }), let integer = value as? any BinaryInteger {
            // Int64, UInt8, …: their own encode(to:) would ask this writer for themselves again.
            output.append(Array(String(integer).utf8))
        } else {
            let before = output.count
            try value.encode(to: StreamEncoder(writer: self, depth: depth, owner: makeOwner(), path: path()))
            closeDeeper(than: depth - 1)  // its own container too: the value is complete
            if output.count == before { output.append("{}") }
        }
    }

    // Scalars as `JSONOutput` writes them, so the two paths give the same bytes.
    func write(_ bool: Bool) { JSONOutput.append(bool, to: &output) }
    func write(_ int: Int) { JSONOutput.append(Int64(int), to: &output) }
    func writeNull() { output.append("null") }

    func write(_ double: Double, _ codingPath: () -> [any CodingKey]) throws {
        guard double.isFinite else { throw JSONOutput.nonFinite(double, codingPath: codingPath()) }
        JSONOutput.append(finite: double, to: &output)
    }

    /// Opens an object or array for the value at `depth`, or finds it open already when the
    /// same encoder (`owner`) asks again.
    func openContainer(depth: Int, isObject: Bool, owner: Int) {
        closeDeeper(than: depth)
        if open.count == depth + 1 {
            if open[depth].owner == owner { return }
            closeDeeper(than: depth - 1)
        }
        if open.count != depth { outOfOrder = true }
        open.append(Frame(isObject: isObject, owner: owner))
        output.append(UInt8(ascii: isObject ? "{" : "["))
    }

    /// Readies the container at `depth` for its next member or element (the deeper ones closed,
    /// a comma after the first, the key of a member); throws when it was closed already.
    func nextEntry(depth: Int, owner: Int, key: String?, codingPath: () -> [any CodingKey]) throws {
        closeDeeper(than: depth)
        guard open.count == depth + 1, open[depth].owner == owner else {
            throw EncodingError.invalidValue(
                key ?? "", .init(codingPath: codingPath(), debugDescription: "OrderedJSONEncoder writes in order: this container was already finished."))
        }
        if open[depth].count > 0 { output.append(UInt8(ascii: ",")) }
        open[depth].count += 1
        if let key {
            JSONWriter.writeQuoted(key, to: &output)
            output.append(UInt8(ascii: ":"))
        }
    }

    /// Closes the containers of values deeper than `depth`.
    func closeDeeper(than depth: Int) {
        while open.count > depth + 1 {
            output.append(UInt8(ascii: open.removeLast().isObject ? "}" : "]"))
        }
    }

    func closeAll() { closeDeeper(than: -1) }

    /// Appends `string` as a JSON string literal: quotes, backslashes and control characters
    /// escaped, runs of bytes that need no escape copied whole.
    static func writeQuoted(_ string: String, to output: inout JSONBytes) {
        var string = string
        string.withUTF8 { bytes in
            output.append(UInt8(ascii: "\""))
            var runStart = 0
            for index in bytes.indices {
                let byte = bytes[index]
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                output.append(UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
                runStart = index + 1
                // Byte by byte: an array literal here was an allocation per escape.
                output.append(UInt8(ascii: "\\"))
                switch byte {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"): output.append(byte)
                case 0x0A: output.append(UInt8(ascii: "n"))
                case 0x0D: output.append(UInt8(ascii: "r"))
                case 0x09: output.append(UInt8(ascii: "t"))
                default:
                    output.append(UInt8(ascii: "u"))
                    output.append(UInt8(ascii: "0"))
                    output.append(UInt8(ascii: "0"))
                    output.append(hexDigit(byte >> 4))
                    output.append(hexDigit(byte & 0xF))
                }
            }
            output.append(UnsafeBufferPointer(rebasing: bytes[runStart...]))
            output.append(UInt8(ascii: "\""))
        }
    }

    /// The lowercase hex digit of a value below 16.
    private static func hexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
    }
}
