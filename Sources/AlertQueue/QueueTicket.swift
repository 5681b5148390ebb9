/// Tickets name queue items in URLs: 16 random bytes as unpadded base64url, 22 characters of
/// `A–Z a–z 0–9 - _`. Random, so a ticket says nothing about the session or the order.
public enum QueueTicket {
    public static let length = 22

    public static func random() -> String {
        var generator = SystemRandomNumberGenerator()
        let high = generator.next()
        let low = generator.next()
        let bytes = (0..<16).map { index in
            UInt8(truncatingIfNeeded: (index < 8 ? high : low) >> (8 * (index % 8)))
        }
        return make(from: bytes)
    }

    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// The ticket for these bytes: base64url (RFC 4648 §5) without padding.
    static func make(from bytes: [UInt8]) -> String {
        var characters: [UInt8] = []
        characters.reserveCapacity((bytes.count * 4 + 2) / 3)
        var index = 0
        while index < bytes.count {
            let count = min(3, bytes.count - index)
            var group = UInt32(bytes[index]) << 16
            if count > 1 { group |= UInt32(bytes[index + 1]) << 8 }
            if count > 2 { group |= UInt32(bytes[index + 2]) }
            for position in 0...count {
                characters.append(alphabet[Int((group >> (18 - 6 * position)) & 0x3F)])
            }
            index += 3
        }
        return String(decoding: characters, as: UTF8.self)
    }

    /// Whether `text` could be a ticket (so a malformed one can be refused before any lookup).
    public static func isWellFormed(_ text: String) -> Bool {
        text.utf8.count == length && text.utf8.allSatisfy { alphabet.contains($0) }
    }
}
