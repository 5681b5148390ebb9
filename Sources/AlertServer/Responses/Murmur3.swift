/// MurmurHash3 x64 128 (Austin Appleby's reference, seed 0): a fast, well-spread 128-bit hash
/// of bytes, the same on every instance and run. It is not a cryptographic hash: collisions
/// can be crafted, which an entity tag can bear (a client sending a crafted tag only fools its
/// own cache), and it costs about a twentieth of SHA-256 without the SHA instructions.
enum Murmur3 {
    /// The 16 bytes of the hash: the first half little-endian, then the second, as the
    /// reference writes them.
    static func hash128(_ bytes: UnsafeRawBufferPointer) -> (UInt64, UInt64) {
        let c1: UInt64 = 0x87c3_7b91_1142_53d5
        let c2: UInt64 = 0x4cf5_ad43_2745_937f
        var h1: UInt64 = 0
        var h2: UInt64 = 0
        let blocks = bytes.count / 16
        for block in 0..<blocks {
            var k1 = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: block * 16, as: UInt64.self))
            var k2 = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: block * 16 + 8, as: UInt64.self))
            k1 = rotl(k1 &* c1, 31) &* c2
            h1 ^= k1
            h1 = (rotl(h1, 27) &+ h2) &* 5 &+ 0x52dc_e729
            k2 = rotl(k2 &* c2, 33) &* c1
            h2 ^= k2
            h2 = (rotl(h2, 31) &+ h1) &* 5 &+ 0x3849_5ab5
        }
        // The last 0…15 bytes: up to 8 into k1, the rest into k2, little-endian.
        let tail = blocks * 16
        var k1: UInt64 = 0
        var k2: UInt64 = 0
        for index in stride(from: bytes.count - 1, through: tail, by: -1) {
            let offset = index - tail
            if offset >= 8 {
                k2 |= UInt64(bytes[index]) << UInt64((offset - 8) * 8)
            } else {
                k1 |= UInt64(bytes[index]) << UInt64(offset * 8)
            }
        }
        if bytes.count & 15 > 8 { h2 ^= rotl(k2 &* c2, 33) &* c1 }
        if bytes.count & 15 > 0 { h1 ^= rotl(k1 &* c1, 31) &* c2 }
        h1 ^= UInt64(bytes.count)
        h2 ^= UInt64(bytes.count)
        h1 &+= h2
        h2 &+= h1
        h1 = mix(h1)
        h2 = mix(h2)
        h1 &+= h2
        h2 &+= h1
        return (h1, h2)
    }

    @inline(__always)
    private static func rotl(_ value: UInt64, _ count: UInt64) -> UInt64 {
        (value << count) | (value >> (64 - count))
    }

    /// The reference's `fmix64`: every input bit reaches every output bit.
    @inline(__always)
    private static func mix(_ value: UInt64) -> UInt64 {
        var k = value
        k ^= k >> 33
        k &*= 0xff51_afd7_ed55_8ccd
        k ^= k >> 33
        k &*= 0xc4ce_b9fe_1a85_ec53
        k ^= k >> 33
        return k
    }
}
