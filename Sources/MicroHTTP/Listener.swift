import CMicroHTTPD
import Foundation
import Glibc
import Synchronization

/// The listening socket and the thread that accepts on it, handing every new connection to the
/// daemon (`MHD_add_connection` spreads them over the worker threads). Accepting here rather
/// than in MHD's poll loops admits a burst of clients at once instead of one per loop iteration.
final class Listener: Sendable {
    /// The port bound (useful when port 0 was asked for).
    let port: Int
    private let socket: Int32
    private let closed = Atomic<Bool>(false)
    private let finished = DispatchSemaphore(value: 0)

    /// Binds and listens on `address`; accepting starts with `start(daemon:)`.
    init(address: SocketAddress, backlog: Int) throws {
        let family = Int32(address.storage.pointee.ss_family)
        let fd = Glibc.socket(family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw HTTPServerError.cannotListen(host: address.host, port: address.port) }
        var on: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, socklen_t(MemoryLayout<Int32>.size))
        if family == AF_INET6 {
            setsockopt(fd, Int32(IPPROTO_IPV6), IPV6_V6ONLY, &on, socklen_t(MemoryLayout<Int32>.size))
        }
        let length = socklen_t(family == AF_INET6 ? MemoryLayout<sockaddr_in6>.size : MemoryLayout<sockaddr_in>.size)
        let bound = address.storage.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.bind(fd, $0, length) }
        guard bound == 0, Glibc.listen(fd, Int32(backlog)) == 0 else {
            Glibc.close(fd)
            throw HTTPServerError.cannotListen(host: address.host, port: address.port)
        }
        var local = sockaddr_storage()
        var localLength = socklen_t(MemoryLayout<sockaddr_storage>.size)
        _ = withUnsafeMutablePointer(to: &local) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &localLength) }
        }
        port = Int(
            family == AF_INET6
                ? withUnsafePointer(to: &local) { $0.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { UInt16(bigEndian: $0.pointee.sin6_port) } }
                : withUnsafePointer(to: &local) { $0.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { UInt16(bigEndian: $0.pointee.sin_port) } })
        socket = fd
    }

    /// Starts the accepting thread, which counts each connection against `clients`' limit.
    func start(daemon: OpaquePointer, clients: ClientLimit) {
        nonisolated(unsafe) let daemon = daemon
        let thread = Thread { [self] in
            acceptLoop(daemon, clients)
            finished.signal()
        }
        thread.name = "alertd-accept"
        thread.start()
    }

    /// Stops accepting and waits for the accepting thread to end. Connections already handed
    /// over are not affected.
    func close() {
        guard !closed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        shutdown(socket, Int32(SHUT_RDWR))  // wakes the blocked accept()
        finished.wait()
        Glibc.close(socket)
    }

    private func acceptLoop(_ daemon: OpaquePointer, _ clients: ClientLimit) {
        while !closed.load(ordering: .acquiring) {
            var peer = sockaddr_storage()
            var peerLength = socklen_t(MemoryLayout<sockaddr_storage>.size)
            let client = withUnsafeMutablePointer(to: &peer) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    Glibc.accept(socket, $0, &peerLength)
                }
            }
            if client < 0 {
                switch errno {
                case EINTR, ECONNABORTED, EAGAIN: continue
                case EMFILE, ENFILE, ENOBUFS, ENOMEM: usleep(10_000)  // out of descriptors: let some close
                default: if closed.load(ordering: .acquiring) { return } else { usleep(10_000) }
                }
                continue
            }
            // Past its client's limit: closed at once, here, in the order connections arrive.
            let key =
                clients.limit > 0
                ? withUnsafePointer(to: &peer) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { ClientKey(address: $0) } }
                : nil
            if let key, !clients.accept(client, for: key) {
                Glibc.close(client)
                continue
            }
            _ = fcntl(client, F_SETFD, FD_CLOEXEC)
            _ = fcntl(client, F_SETFL, fcntl(client, F_GETFL) | O_NONBLOCK)
            // MHD takes the socket either way: on refusal (its own limits) it closes it itself.
            let added = withUnsafePointer(to: &peer) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { MHD_add_connection(daemon, client, $0, peerLength) }
            }
            if added != .YES, let key, clients.started(client) != nil { clients.release(key) }
        }
    }
}
