#if canImport(Glibc)
import Glibc
#endif
import Locking

/// Random 64-bit words from the kernel's generator, read 4 KiB at a time.
///
/// `SystemRandomNumberGenerator` makes one `getrandom` call per word, so a ticket cost two
/// system calls per enqueue. These are the same bytes, read in bulk from `/dev/urandom` (three
/// calls per 256 tickets) and handed out once each under a lock.
enum RandomWords {
    /// Two words never handed out before.
    static func pair() -> (UInt64, UInt64) {
        pool.withLock { pool in
            if pool.next + 2 > Pool.size { pool.refill() }
            defer { pool.next += 2 }
            return (pool.words[pool.next], pool.words[pool.next + 1])
        }
    }

    private struct Pool {
        static let size = 512
        var words = [UInt64](repeating: 0, count: size)
        /// The first word not handed out; `size` when all were.
        var next = size

        mutating func refill() {
            var filled = 0
            #if canImport(Glibc)
            // Glibc's module map leaves `getrandom` out; /dev/urandom is the same generator.
            let file = open("/dev/urandom", O_RDONLY | O_CLOEXEC)
            if file >= 0 {
                filled = words.withUnsafeMutableBytes { buffer in
                    var done = 0
                    while done < buffer.count {
                        let count = read(file, buffer.baseAddress! + done, buffer.count - done)
                        if count < 0, errno == EINTR { continue }
                        guard count > 0 else { break }
                        done += count
                    }
                    return done / MemoryLayout<UInt64>.stride
                }
                close(file)
            }
            #endif
            // Words not read (no /dev/urandom here, or a failed read): one getrandom call each.
            var generator = SystemRandomNumberGenerator()
            for index in filled..<Self.size { words[index] = generator.next() }
            next = 0
        }
    }

    private static let pool = Locked(Pool())
}
