/// JSON being written by `JSONWritable` values: compact, UTF-8, in the order it is written.
/// Numbers and strings are written exactly as `OrderedJSONEncoder`'s `Encodable` path writes
/// them (the two share the code below), so both paths give the same bytes.
///
/// ```swift
/// var output = JSONOutput()
/// output.beginObject()
/// output.member("id", "app/saved")
/// try output.member("autoHide", 2.0)
/// output.endObject()
/// output.bytes   // {"id":"app/saved","autoHide":2}
/// ```
public struct JSONOutput: ~Copyable {
    private var storage: JSONBytes
    /// Whether the next member or element is the first of its container, so has no comma before it.
    /// One flag serves every depth: a value that ends leaves its parent past its first entry.
    private var atFirstEntry = true
    /// Writes a `memberIfPresent` without a value as `null` instead of leaving it out, as
    /// `OrderedJSONEncoder.writesAbsentOptionals` asks.
    public var writesAbsentOptionals = false

    public init(capacity: Int = 1024) {
        storage = JSONBytes(capacity: capacity)
    }

    /// The JSON written so far.
    public var bytes: [UInt8] { storage.array }

    public mutating func beginObject() {
        storage.append(UInt8(ascii: "{"))
        atFirstEntry = true
    }

    public mutating func endObject() {
        storage.append(UInt8(ascii: "}"))
        atFirstEntry = false
    }

    public mutating func beginArray() {
        storage.append(UInt8(ascii: "["))
        atFirstEntry = true
    }

    public mutating func endArray() {
        storage.append(UInt8(ascii: "]"))
        atFirstEntry = false
    }

    /// Readies the next element of an array: a comma after the first.
    public mutating func nextElement() {
        if !atFirstEntry { storage.append(UInt8(ascii: ",")) }
        atFirstEntry = false
    }

    /// Starts the next member of an object: a comma after the first, then `key` and a colon.
    /// `key` is written as it is, so it must be one that needs no escaping (a Swift identifier).
    public mutating func key(_ key: StaticString) {
        let comma = !atFirstEntry
        atFirstEntry = false
        key.withUTF8Buffer { name in
            storage.write(upTo: name.count + 4) { out in
                var at = 0
                if comma {
                    out[0] = UInt8(ascii: ",")
                    at = 1
                }
                out[at] = UInt8(ascii: "\"")
                if let start = name.baseAddress { (out + at + 1).update(from: start, count: name.count) }
                at += name.count + 1
                out[at] = UInt8(ascii: "\"")
                out[at + 1] = UInt8(ascii: ":")
                return at + 2
            }
        }
    }

    /// Starts the next member of an object under a key made at run time (escaped as needed).
    public mutating func key(_ key: String) {
        nextElement()
        JSONWriter.writeQuoted(key, to: &storage)
        storage.append(UInt8(ascii: ":"))
    }

    public mutating func write(_ string: String) { JSONWriter.writeQuoted(string, to: &storage) }
    /// JSON this encoder already wrote, as it is.
    public mutating func write(_ json: EncodedJSON) { storage.append(json.bytes) }
    public mutating func write(_ int: Int) { JSONOutput.append(Int64(int), to: &storage) }
    public mutating func write(_ bool: Bool) { JSONOutput.append(bool, to: &storage) }
    public mutating func writeNull() { storage.append("null") }

    /// Throws `EncodingError.invalidValue` for infinities and NaN, which JSON has no form for.
    public mutating func write(_ double: Double) throws {
        guard double.isFinite else { throw JSONOutput.nonFinite(double, codingPath: []) }
        JSONOutput.append(finite: double, to: &storage)
    }

    public mutating func write<T: JSONWritable>(_ value: T) throws { try value.writeJSON(to: &self) }

    // A member in one call: the key, then the value. `IfPresent` leaves a nil out altogether,
    // as `encodeIfPresent` and synthesized `Encodable` conformances do (or writes it as null,
    // see `writesAbsentOptionals`).

    public mutating func member(_ key: StaticString, _ value: String) {
        self.key(key)
        write(value)
    }

    public mutating func member(_ key: StaticString, _ value: Int) {
        self.key(key)
        write(value)
    }

    public mutating func member(_ key: StaticString, _ value: Bool) {
        self.key(key)
        write(value)
    }

    public mutating func member(_ key: StaticString, _ value: Double) throws {
        self.key(key)
        try write(value)
    }

    public mutating func member<T: JSONWritable>(_ key: StaticString, _ value: T) throws {
        self.key(key)
        try value.writeJSON(to: &self)
    }

    public mutating func memberIfPresent(_ key: StaticString, _ value: String?) {
        if let value { member(key, value) } else { absent(key) }
    }

    public mutating func memberIfPresent(_ key: StaticString, _ value: Double?) throws {
        if let value { try member(key, value) } else { absent(key) }
    }

    public mutating func memberIfPresent<T: JSONWritable>(_ key: StaticString, _ value: T?) throws {
        if let value { try member(key, value) } else { absent(key) }
    }

    private mutating func absent(_ key: StaticString) {
        guard writesAbsentOptionals else { return }
        self.key(key)
        writeNull()
    }
}

// The number and literal forms, shared with `JSONWriter` (the `Encodable` path).
extension JSONOutput {
    static func append(_ bool: Bool, to bytes: inout JSONBytes) {
        bytes.append(bool ? "true" : "false")
    }

    /// Decimal digits, as `String(int)` has them, without making a string.
    static func append(_ int: Int64, to bytes: inout JSONBytes) {
        if int < 0 { bytes.append(UInt8(ascii: "-")) }
        var magnitude = int.magnitude
        var digits = 1
        while magnitude >= 10 {
            magnitude /= 10
            digits += 1
        }
        magnitude = int.magnitude
        bytes.write(upTo: digits) { out in
            // The last digit last: fill from the end.
            var index = digits
            repeat {
                index -= 1
                out[index] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            return digits
        }
    }

    /// An integral value below 1e15 as an integer (`2`, not `2.0`), any other as `String(double)`
    /// gives it (`0.25`, `1e+15`): the shortest form that reads back as the same double.
    static func append(finite double: Double, to bytes: inout JSONBytes) {
        if double == double.rounded(), abs(double) < 1e15 {
            append(Int64(double), to: &bytes)
        } else {
            var text = String(double)
            text.withUTF8 { bytes.append($0) }
        }
    }

    /// The error for a number JSON has no form for.
    static func nonFinite(_ double: Double, codingPath: [any CodingKey]) -> EncodingError {
        .invalidValue(double, .init(codingPath: codingPath, debugDescription: "JSON has no form for \(double)"))
    }
}
