#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A value behind a lock: the one way alertd's modules share mutable state between threads.
///
/// ```swift
/// let waiting = Locked<[String: Int]>([:])
/// waiting.withLock { $0["s", default: 0] += 1 }
/// ```
///
/// The lock is a `pthread_mutex_t`, not `Synchronization.Mutex`. On Linux a contended `Mutex`
/// waits on a futex inside the standard library, which is built without ThreadSanitizer's
/// instrumentation, so TSan never sees that lock's ordering and reports every contended
/// critical section as a race (measured here with a 20-line program). TSan intercepts pthread
/// mutexes, so with this lock `make test-tsan` reports only real races. Uncontended, both are
/// one atomic instruction plus a call; the cost is one allocation when the lock is made.
public struct Locked<Value>: @unchecked Sendable {
    private let storage: LockedStorage<Value>

    public init(_ initialValue: consuming sending Value) {
        storage = LockedStorage.make(initialValue)
    }

    /// Runs `body` with exclusive access to the value; keep it short and never block in it.
    public func withLock<Result, E: Error>(
        _ body: (inout sending Value) throws(E) -> sending Result
    ) throws(E) -> sending Result {
        storage.lock()
        defer { storage.unlock() }
        return try body(&storage.header)
    }
}

/// The value (header) and its mutex (the one element) in one allocation, so the mutex has the
/// stable address pthreads require.
private final class LockedStorage<Value>: ManagedBuffer<Value, pthread_mutex_t> {
    static func make(_ value: Value) -> LockedStorage<Value> {
        let buffer = create(minimumCapacity: 1) { _ in value }
        let storage = unsafeDowncast(buffer, to: LockedStorage<Value>.self)
        storage.withUnsafeMutablePointerToElements { mutex in
            mutex.initialize(to: pthread_mutex_t())
            let status = pthread_mutex_init(mutex, nil)
            precondition(status == 0, "pthread_mutex_init failed: \(status)")
        }
        return storage
    }

    func lock() {
        let status = withUnsafeMutablePointerToElements { pthread_mutex_lock($0) }
        precondition(status == 0, "pthread_mutex_lock failed: \(status)")
    }

    func unlock() {
        let status = withUnsafeMutablePointerToElements { pthread_mutex_unlock($0) }
        precondition(status == 0, "pthread_mutex_unlock failed: \(status)")
    }

    deinit {
        withUnsafeMutablePointerToElements { mutex in
            _ = pthread_mutex_destroy(mutex)
            _ = mutex.deinitialize(count: 1)
        }
    }
}
