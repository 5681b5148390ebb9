import Foundation
import Testing

@testable import AlertQueue

@Suite("Queue tickets")
struct QueueTicketTests {
    @Test("A ticket is 22 URL-safe characters: 48 bits of milliseconds, then 84 random bits")
    func layout() {
        #expect(QueueTicket.make(milliseconds: 0, random: (0, 0)) == "----------------------")
        #expect(QueueTicket.make(milliseconds: (1 << 48) - 1, random: (.max, .max)) == "zzzzzzzzzzzzzzzzzzzzzz")
        // The time part, most significant digit first; the random part, least significant first.
        #expect(QueueTicket.make(milliseconds: 1, random: (1, 0)) == "-------00-------------")
        #expect(QueueTicket.make(milliseconds: 64, random: (0, 1 << 18)) == "------0--------------0")
        // Bits beyond the 48 of time, the 60 of the first random word and the 24 of the second are dropped.
        #expect(QueueTicket.make(milliseconds: 1 << 48, random: (1 << 60, 1 << 24)) == "----------------------")
    }

    @Test("Tickets sort as bytes in the order of their milliseconds, whatever their random part")
    func order() {
        let moments: [UInt64] = [0, 1, 63, 64, 4095, 4096, 1_764_000_000_000, 1_764_000_000_001, (1 << 48) - 1]
        var generator = SystemRandomNumberGenerator()
        let tickets = moments.map { QueueTicket.make(milliseconds: $0, random: (generator.next(), generator.next())) }
        for (earlier, later) in zip(tickets, tickets.dropFirst()) {
            #expect(Array(earlier.utf8).lexicographicallyPrecedes(Array(later.utf8)), "\(earlier) before \(later)")
        }
    }

    @Test("Tickets made now are well formed, distinct, and carry the moment they were made")
    func madeNow() {
        let moment = Date(timeIntervalSince1970: 1_764_000_000.123)
        let tickets = (0..<1000).map { _ in QueueTicket.make(at: moment) }
        #expect(Set(tickets).count == 1000)
        #expect(tickets.allSatisfy(QueueTicket.isWellFormed))
        let expected = QueueTicket.make(milliseconds: 1_764_000_000_123, random: (0, 0))
        #expect(expected.hasPrefix("-Oeq_yWv"))
        #expect(tickets.allSatisfy { $0.prefix(8) == expected.prefix(8) })
        // Before 1970, a ticket's time is 0.
        #expect(QueueTicket.make(at: Date(timeIntervalSince1970: -5)).hasPrefix("--------"))
    }

    @Test("Random words come in bulk from the kernel, each handed out once, across refills and threads")
    func randomWords() async {
        // 512 words a refill, two a pair: 4,000 pairs from four tasks span several refills.
        let pairs = await withTaskGroup(of: [UInt64].self) { group in
            for _ in 0..<4 {
                group.addTask { (0..<1000).flatMap { _ in let pair = RandomWords.pair(); return [pair.0, pair.1] } }
            }
            return await group.reduce(into: []) { $0 += $1 }
        }
        #expect(pairs.count == 8000)
        #expect(Set(pairs).count == 8000)
        // Every bit position takes both values (a word left at 0 or a byte never filled would not).
        #expect(pairs.reduce(0, |) == .max)
        #expect(pairs.reduce(.max, &) == 0)
    }

    @Test("A well-formed ticket has 22 characters of A–Z a–z 0–9 - _, as earlier versions' did")
    func wellFormed() {
        #expect(QueueTicket.isWellFormed("_____________________w"))  // 16 random bytes, base64url
        #expect(QueueTicket.isWellFormed("-_v7-_v7-_v7-_v7-_v7-w"))
        #expect(!QueueTicket.isWellFormed("short"))
        #expect(!QueueTicket.isWellFormed("AAAAAAAAAAAAAAAAAAAA+/"))
        #expect(!QueueTicket.isWellFormed("AAAAAAAAAAAAAAAAAAAAAAA"))
    }
}
