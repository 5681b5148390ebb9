import Foundation

/// Tickets name queue items in URLs: 22 characters of `A–Z a–z 0–9 - _`.
///
/// The first 8 characters are the millisecond the ticket was made (48 bits), the other 14 are
/// 84 random bits. Both are written with those 64 characters in ASCII order (`-`, digits,
/// capitals, `_`, small letters), so tickets sort, as bytes, in the order they were made.
///
/// Why ordered: every store keeps a unique index on tickets, and an index of random keys takes
/// each new one at a random page, which must be read, written to the WAL and checkpointed (a
/// page per enqueue, beyond the SQLite cache once the table is large). Ordered keys land on
/// the index's last page, which one batch of enqueues shares. Measured with two release builds
/// side by side (scripts/bench-queue.sh's enqueue run on SQLite, two runs of 6 alternating
/// rounds): 1.11–1.46 × the enqueues per second (median 1.17 ×), then 0.99–1.27 × (1.14 ×),
/// at 0.80–1.02 × the server CPU per enqueue.
///
/// The random part keeps a ticket unguessable; the time part tells only when the item was
/// queued, which its listing shows anyway. A ticket never serves as a clock: ordering in a
/// queue is the store's enqueue sequence, not the ticket.
public enum QueueTicket {
    public static let length = 22

    /// A new ticket, for an item queued at `date`.
    public static func make(at date: Date) -> String {
        let milliseconds = date.timeIntervalSince1970 * 1000
        return make(
            milliseconds: milliseconds > 0 ? UInt64(min(milliseconds, Double(timeMask))) : 0,
            random: RandomWords.pair())
    }

    /// The ticket for `milliseconds` since 1970 (its low 48 bits) and 84 bits of `random` (the
    /// low 60 of the first, the low 24 of the second).
    static func make(milliseconds: UInt64, random: (UInt64, UInt64)) -> String {
        String(unsafeUninitializedCapacity: length) { buffer in
            let time = milliseconds & timeMask
            for index in 0..<8 {
                buffer[index] = alphabet[Int(truncatingIfNeeded: (time >> (42 - 6 * UInt64(index))) & 0x3F)]
            }
            for index in 0..<10 {
                buffer[8 + index] = alphabet[Int(truncatingIfNeeded: (random.0 >> (6 * UInt64(index))) & 0x3F)]
            }
            for index in 0..<4 {
                buffer[18 + index] = alphabet[Int(truncatingIfNeeded: (random.1 >> (6 * UInt64(index))) & 0x3F)]
            }
            return length
        }
    }

    /// The 48 bits of milliseconds a ticket holds (until the year 10889).
    private static let timeMask: UInt64 = (1 << 48) - 1

    /// The base64url characters in ASCII order: a ticket's order as bytes is its numbers' order.
    private static let alphabet: [UInt8] = Array("-0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz".utf8)

    /// Whether `text` could be a ticket (so a malformed one can be refused before any lookup).
    /// Tickets of earlier versions (16 random bytes as base64url) have the same form.
    public static func isWellFormed(_ text: String) -> Bool {
        text.utf8.count == length && text.utf8.allSatisfy { alphabet.contains($0) }
    }
}
