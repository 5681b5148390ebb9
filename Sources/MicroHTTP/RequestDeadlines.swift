import CMicroHTTPD
import Foundation
import Glibc
import Locking
import Synchronization

/// Cuts requests that do not arrive in time: a head must be complete within `headTimeout` of
/// its first byte, and a body must keep up `minBodyRate` bytes a second after `bodyGrace`
/// (a body of n bytes gets `bodyGrace + n / minBodyRate`). A request being handled — a
/// suspended long-poll included — has no deadline, and a connection that waits for its next
/// request is left to MHD's idle timeout (`--connection-timeout`) until a byte arrives.
///
/// MHD's own timeout measures idleness only, so a client trickling a byte now and then would
/// hold its slot for ever. The workers only note phase changes (`RequestProgress`, a few atomic
/// stores); a thread of its own looks every `tick` and cuts a late request with `shutdown()`,
/// which MHD's poll loop sees as the client going away: closed, without an answer.
final class RequestDeadlines: @unchecked Sendable {
    struct Limits: Sendable {
        var headTimeout: Duration
        var bodyGrace: Duration
        var minBodyRate: Int
    }

    let limits: Limits
    private let connections = Locked<[ObjectIdentifier: ConnectionState]>([:])
    private let stopping = Atomic<Bool>(false)
    private let wake = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)
    private let started = Atomic<Bool>(false)
    /// Looks taken so far, and requests cut: what tests wait on instead of sleeping.
    let scans = Atomic<Int>(0)
    let cuts = Atomic<Int>(0)

    init(limits: Limits) {
        self.limits = limits
    }

    /// How often it looks: a quarter of the shorter deadline, between 50 ms and 1 s.
    var tick: Duration {
        min(.seconds(1), max(.milliseconds(50), min(limits.headTimeout, limits.bodyGrace) / 4))
    }

    func start() {
        guard !started.exchange(true, ordering: .relaxed) else { return }
        let thread = Thread { [self] in
            while !stopping.load(ordering: .acquiring) {
                _ = wake.wait(timeout: .now() + .nanoseconds(Int(tick.nanoseconds)))
                if stopping.load(ordering: .acquiring) { break }
                scan(at: monotonicNanoseconds())
                scans.add(1, ordering: .releasing)
            }
            finished.signal()
        }
        thread.name = "alertd-deadlines"
        thread.start()
    }

    /// Stops the thread and waits for it; before the daemon stops, so no socket is touched after.
    func stop() {
        guard started.load(ordering: .relaxed), !stopping.exchange(true, ordering: .acquiringAndReleasing) else { return }
        wake.signal()
        finished.wait()
    }

    func watch(_ connection: ConnectionState) {
        connections.withLock { $0[ObjectIdentifier(connection)] = connection }
    }

    /// Called when MHD closes the connection, before it closes the socket: from then on the
    /// socket's number may be another connection's, so it is never shut down after this.
    func forget(_ connection: ConnectionState) {
        connections.withLock { _ = $0.removeValue(forKey: ObjectIdentifier(connection)) }
    }

    private func scan(at now: UInt64) {
        let watched = connections.withLock { Array($0.values) }
        for connection in watched {
            let (phase, generation, word) = connection.progress.now
            if generation != connection.notedGeneration {
                connection.notedGeneration = generation
                connection.notedBaseline = nil
                connection.notedHeadStart = nil
            }
            let late: Bool
            switch phase {
            case .awaitingHead: late = headIsLate(connection, now: now)
            case .body:
                let (start, received) = connection.progress.body
                let allowed = limits.bodyGrace.nanoseconds + UInt64(received) * 1_000_000_000 / UInt64(max(1, limits.minBodyRate))
                late = now > start && now - start > allowed
            case .handling, .cut: late = false
            }
            if late { cut(connection, ifStill: word) }
        }
    }

    /// Whether the awaited head began (bytes arrived since the wait began) more than
    /// `headTimeout` ago. The socket's count of received bytes tells when the first byte came,
    /// to within a tick: MHD reads them at once, so nothing else shows it.
    private func headIsLate(_ connection: ConnectionState, now: UInt64) -> Bool {
        if let start = connection.notedHeadStart { return now - start > limits.headTimeout.nanoseconds }
        guard let received = bytesReceived(connection.socket) else { return false }
        guard let baseline = connection.notedBaseline else {
            connection.notedBaseline = received
            return false
        }
        if received > baseline { connection.notedHeadStart = now }
        return false
    }

    private func cut(_ connection: ConnectionState, ifStill word: UInt64) {
        connections.withLock { watched in
            // Still watched, so MHD has not closed the socket: its number is still this connection's.
            guard watched[ObjectIdentifier(connection)] != nil, connection.progress.cut(ifStill: word) else { return }
            cuts.add(1, ordering: .relaxed)  // first, so whoever sees the close sees it counted
            shutdown(connection.socket, Int32(SHUT_RDWR))
        }
    }
}

/// `tcpi_bytes_received` of a TCP socket (Linux 4.1 and later), or nil. glibc's `struct
/// tcp_info` stops before it, so it is read at its offset in the kernel's (append-only) struct.
private func bytesReceived(_ socket: Int32) -> UInt64? {
    withUnsafeTemporaryAllocation(byteCount: 256, alignment: 8) { buffer in
        var length = socklen_t(buffer.count)
        guard getsockopt(socket, Int32(IPPROTO_TCP), TCP_INFO, buffer.baseAddress, &length) == 0, length >= 136 else {
            return nil
        }
        return buffer.loadUnaligned(fromByteOffset: 128, as: UInt64.self)
    }
}

extension Duration {
    /// Whole nanoseconds (negative durations count as zero).
    var nanoseconds: UInt64 {
        let (seconds, attoseconds) = components
        return seconds < 0 ? 0 : UInt64(seconds) * 1_000_000_000 + UInt64(attoseconds / 1_000_000_000)
    }
}
