/// The ids of one group of buttons seen so far, to find one used twice. Real groups hold a few
/// buttons: their ids are compared one by one, without hashing; past `listed` ids a set takes
/// over, so a spec with thousands of buttons is still checked in linear time.
struct SeenIDs {
    /// How many ids are compared one by one before the set is built.
    static let listed = 16

    private var list: [String] = []
    private var set: Set<String> = []

    /// Adds `id`; false when it was already there.
    mutating func insert(_ id: String) -> Bool {
        if set.isEmpty {
            if list.contains(id) { return false }
            if list.count < Self.listed {
                list.append(id)
                return true
            }
            set = Set(list)
        }
        return set.insert(id).inserted
    }
}
