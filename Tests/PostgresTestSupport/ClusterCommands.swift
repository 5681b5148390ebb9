import ChildProcesses
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The commands a throwaway cluster runs: PostgreSQL's programs as the `postgres` user (when the
/// tests run as root, through `runuser`), and the shell for clean-up.
enum ClusterCommands {
    /// Where PostgreSQL's programs are: `ALERTD_PG_BIN`, or Debian's place for version 15.
    static var binaries: String {
        ProcessInfo.processInfo.environment["ALERTD_PG_BIN"] ?? "/usr/lib/postgresql/15/bin"
    }

    static var isRoot: Bool { getuid() == 0 }

    /// Runs the PostgreSQL program `name` with `arguments`, as `postgres` when we are root, and
    /// waits for it without blocking a thread of the concurrency pool. Its output goes to `log`.
    /// - Throws: `ClusterError` with the output when it fails.
    static func run(_ name: String, _ arguments: [String], log: URL) async throws {
        let program = "\(binaries)/\(name)"
        guard FileManager.default.isExecutableFile(atPath: program) else {
            throw ClusterError("\(program) is missing: install postgresql-15 (make test-deps does) or set ALERTD_PG_BIN")
        }
        let command = isRoot ? ["/usr/sbin/runuser", "-u", "postgres", "--", program] + arguments : [program] + arguments
        let child = try spawn(command, output: log.path)
        let status = await withCheckedContinuation { continuation in
            Thread.detachNewThread { continuation.resume(returning: exitCode(of: child)) }
        }
        guard status == 0 else {
            let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            throw ClusterError("\(name) \(arguments.joined(separator: " ")) failed (\(status)): \(text)")
        }
    }

    /// Starts `command` with stdin from /dev/null, stdout and stderr to `output`, and no other
    /// file descriptor of this process (`pg_ctl start` passes what it inherits on to the server
    /// it leaves running).
    static func spawn(_ command: [String], output: String = "/dev/null") throws -> ChildProcess {
        let descriptor = open(output, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw ClusterError("cannot open \(output): errno \(errno)") }
        defer { close(descriptor) }
        do {
            return try ChildProcess(command, standardOutput: descriptor, standardError: descriptor)
        } catch {
            throw ClusterError("\(error)")
        }
    }

    /// Waits for `child` to end (blocking); its exit code, or -1 if a signal ended it.
    static func exitCode(of child: ChildProcess) -> Int32 {
        child.waitUntilExit()
        return child.terminationReason == .exit ? child.terminationStatus : -1
    }

    /// Runs `command` with `/bin/sh` and waits (blocking: for use at exit, where nothing else runs).
    static func shell(_ command: String) {
        guard let child = try? spawn(["/bin/sh", "-c", command]) else { return }
        child.waitUntilExit()
    }

    /// The command that stops the cluster in `data` at once and deletes `root`.
    static func removal(data: String, root: String) -> String {
        let stop = "\(binaries)/pg_ctl -D '\(data)' -m immediate -w stop"
        let asPostgres = isRoot ? "/usr/sbin/runuser -u postgres -- \(stop)" : stop
        return "if [ -f '\(data)/postmaster.pid' ]; then \(asPostgres) >/dev/null 2>&1; fi; rm -rf '\(root)'"
    }

    /// Starts a watchdog in a session of its own that removes the cluster once this process is
    /// gone, however it ended (a crash, a kill): `atexit` does not run then.
    static func startWatchdog(data: String, root: String) throws {
        let script = "while kill -0 \(getpid()) 2>/dev/null; do sleep 1; done; \(removal(data: data, root: root))"
        _ = try spawn(["/usr/bin/setsid", "/bin/sh", "-c", script])
    }

    /// A port free on 127.0.0.1 now, chosen at random below the kernel's ephemeral range: a
    /// cluster a test stops and starts again needs its port back, and in the ephemeral range
    /// any outgoing connection of the hundreds the suite opens may be given it meanwhile.
    static func freePort() throws -> Int {
        let ephemeral = (try? String(contentsOfFile: "/proc/sys/net/ipv4/ip_local_port_range", encoding: .utf8))
            .flatMap { $0.split(whereSeparator: \.isWhitespace).first.flatMap { Int($0) } } ?? 32768
        let low = 20000
        if ephemeral > low + 1000 {
            for _ in 0..<64 {
                let candidate = Int.random(in: low..<ephemeral)
                if try bindable(candidate) { return candidate }
            }
        }
        return try bound(0)
    }

    private static func bindable(_ port: Int) throws -> Bool {
        do {
            return try bound(port) == port
        } catch is PortTaken {
            return false
        }
    }

    private struct PortTaken: Error {}

    /// Binds a socket to 127.0.0.1:`port` (0: any), closes it, and says which port it had.
    private static func bound(_ port: Int) throws -> Int {
        #if canImport(Glibc)
            let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { throw ClusterError("socket() failed") }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                bind(descriptor, address, length) == 0 && getsockname(descriptor, address, &length) == 0
            }
        }
        guard bound else {
            if port != 0 { throw PortTaken() }
            throw ClusterError("no free port on 127.0.0.1")
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}

/// A throwaway cluster could not be made or driven.
public struct ClusterError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
