import Glibc

/// The wall clock as `2026-11-21T15:17:46.123456Z` (RFC 3339, UTC, microseconds), written by hand
/// from `clock_gettime` and `gmtime_r`: no Foundation formatter, no allocation, no lock.
enum UTCTimestamp {
    /// Appends the current time to `line`.
    static func append(to line: inout [UInt8]) {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        var seconds = now.tv_sec
        var parts = tm()
        gmtime_r(&seconds, &parts)
        append(Int(parts.tm_year) + 1900, digits: 4, to: &line)
        line.append(UInt8(ascii: "-"))
        append(Int(parts.tm_mon) + 1, digits: 2, to: &line)
        line.append(UInt8(ascii: "-"))
        append(Int(parts.tm_mday), digits: 2, to: &line)
        line.append(UInt8(ascii: "T"))
        append(Int(parts.tm_hour), digits: 2, to: &line)
        line.append(UInt8(ascii: ":"))
        append(Int(parts.tm_min), digits: 2, to: &line)
        line.append(UInt8(ascii: ":"))
        append(Int(parts.tm_sec), digits: 2, to: &line)
        line.append(UInt8(ascii: "."))
        append(Int(now.tv_nsec) / 1000, digits: 6, to: &line)
        line.append(UInt8(ascii: "Z"))
    }

    /// `value` in decimal, zero-padded to `digits`.
    private static func append(_ value: Int, digits: Int, to line: inout [UInt8]) {
        var divisor = 1
        for _ in 1..<digits { divisor *= 10 }
        var rest = value
        while divisor > 0 {
            line.append(UInt8(ascii: "0") + UInt8(rest / divisor % 10))
            rest %= divisor
            divisor /= 10
        }
    }
}
