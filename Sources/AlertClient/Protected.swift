import Foundation

/// A value behind an `NSLock`: the client's shared state (the render cache, the statistics).
///
/// Not `Synchronization.Mutex`, which needs iOS 18; the package supports iOS 16.
final class Protected<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
