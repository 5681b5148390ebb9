import Synchronization

/// A fixed number of integer counters in one allocation, each an `Atomic`: any thread adds
/// without a lock, a scrape reads them while others add.
final class AtomicCounters: Sendable {
    nonisolated(unsafe) private let slots: UnsafeMutablePointer<Atomic<Int>>
    let count: Int

    init(count: Int) {
        self.count = count
        slots = .allocate(capacity: count)
        for index in 0..<count { (slots + index).initialize(to: Atomic(0)) }
    }

    deinit {
        slots.deinitialize(count: count)
        slots.deallocate()
    }

    func add(_ amount: Int, at index: Int) {
        slots[index].add(amount, ordering: .relaxed)
    }

    subscript(index: Int) -> Int {
        slots[index].load(ordering: .relaxed)
    }
}
