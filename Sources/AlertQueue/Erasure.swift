/// What erasing a session removed: its items (of every state) and their timelines' events.
/// Its hold and its per-session counts go too, but are not counted.
public struct Erasure: Sendable, Equatable {
    public var items: Int
    public var events: Int

    public init(items: Int, events: Int) {
        self.items = items
        self.events = events
    }

    /// Nothing erased: an unknown or already erased session.
    public static let nothing = Erasure(items: 0, events: 0)
}
