/// The bytes of JSON being written: a growable buffer whose append is a capacity check and a
/// copy. An `Array` append also checks that the storage is not shared and keeps more books,
/// which made each object key (five appends) a tenth of encoding a rendered spec.
///
/// Not copyable, so its memory has one owner and is freed once.
struct JSONBytes: ~Copyable {
    private var base: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    private(set) var count = 0

    init(capacity: Int) {
        self.capacity = max(capacity, 16)
        base = .allocate(capacity: self.capacity)
    }

    deinit { base.deallocate() }

    /// The bytes written, as an array of their own.
    var array: [UInt8] { Array(UnsafeBufferPointer(start: base, count: count)) }

    @inline(__always)
    mutating func append(_ byte: UInt8) {
        if count == capacity { grow(toHold: count + 1) }
        base[count] = byte
        count += 1
    }

    @inline(__always)
    mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress else { return }
        if count + bytes.count > capacity { grow(toHold: count + bytes.count) }
        (base + count).update(from: source, count: bytes.count)
        count += bytes.count
    }

    mutating func append(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { append($0) }
    }

    /// A literal's bytes (`"null"`, `"{}"`).
    mutating func append(_ literal: StaticString) {
        literal.withUTF8Buffer { append($0) }
    }

    /// Makes room for `extra` more bytes and lets `body` write them from the end; `body`
    /// returns how many it wrote, at most `extra`.
    @inline(__always)
    mutating func write(upTo extra: Int, _ body: (UnsafeMutablePointer<UInt8>) -> Int) {
        if count + extra > capacity { grow(toHold: count + extra) }
        count += body(base + count)
    }

    /// At least doubles, so appends cost a constant amount on average.
    @inline(never)
    private mutating func grow(toHold needed: Int) {
        let larger = max(needed, capacity * 2)
        let moved = UnsafeMutablePointer<UInt8>.allocate(capacity: larger)
        moved.initialize(from: base, count: count)
        base.deallocate()
        base = moved
        capacity = larger
    }
}
