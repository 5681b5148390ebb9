import Foundation
import Locking

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A child process started with `posix_spawn`, for the tests that run programs.
///
/// Not Foundation's `Process`: on Linux its `run()` reads `/proc/self/fd` to close the
/// descriptors the child would inherit, copying 256 bytes of each directory entry however short
/// the record, and crashes now and then when that copy runs past readdir's buffer (a SIGSEGV in
/// `memcpy` under `Process.run`, seen in a full run of the suite).
///
/// ```swift
/// let child = try ChildProcess(["/bin/echo", "hi"], standardOutput: pipe.writeEnd)
/// child.waitUntilExit()
/// child.terminationReason == .exit && child.terminationStatus == 0
/// ```
public final class ChildProcess: Sendable {
    public let processIdentifier: pid_t
    /// How it ended, once reaped: its exit code, or the signal that ended it.
    private let ended = Locked<(reason: Process.TerminationReason, status: Int32)?>(nil)

    /// Starts `command` (its first member the program's path) with `environment` (this
    /// process's when nil), in `folder`, with standard input, output and error on the given
    /// descriptors (`/dev/null` for a nil input, this process's own for a nil output or error)
    /// and no other descriptor of this process.
    public init(
        _ command: [String], environment: [String: String]? = nil, in folder: String? = nil,
        standardInput: Int32? = nil, standardOutput: Int32? = nil, standardError: Int32? = nil
    ) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if let standardInput {
            posix_spawn_file_actions_adddup2(&actions, standardInput, 0)
        } else {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        }
        if let standardOutput { posix_spawn_file_actions_adddup2(&actions, standardOutput, 1) }
        if let standardError { posix_spawn_file_actions_adddup2(&actions, standardError, 2) }
        if let folder { try Self.changeDirectory(&actions, to: folder) }
        Self.closeInheritedDescriptors(&actions)
        var argv = command.map { strdup($0) } + [nil]
        defer { for argument in argv { free(argument) } }
        var pid = pid_t()
        let result: Int32
        if let environment {
            var envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
            defer { for entry in envp { free(entry) } }
            result = posix_spawn(&pid, command[0], &actions, nil, &argv, &envp)
        } else {
            result = posix_spawn(&pid, command[0], &actions, nil, &argv, environ)
        }
        guard result == 0 else { throw ChildProcessError("cannot start \(command[0]): \(String(cString: strerror(result)))") }
        processIdentifier = pid
    }

    /// Whether it still runs; reaps it once it has ended.
    public var isRunning: Bool { reap() == nil }

    /// Blocks until it has ended (looking every 10 ms, so that another thread may still signal it).
    public func waitUntilExit() {
        while reap() == nil { usleep(10_000) }
    }

    /// Its exit code, or the signal that ended it (see `terminationReason`); -1 while it runs.
    public var terminationStatus: Int32 { reap()?.status ?? -1 }

    /// `.exit`, or `.uncaughtSignal` when a signal ended it. Meaningful once it has ended.
    public var terminationReason: Process.TerminationReason { reap()?.reason ?? .exit }

    /// Sends SIGTERM, unless it has ended.
    public func terminate() {
        if isRunning { _ = kill(processIdentifier, SIGTERM) }
    }

    /// How it ended, reaping it if it just has; nil while it runs. Under the lock: one thread
    /// reaps, and the others read what it recorded.
    private func reap() -> (reason: Process.TerminationReason, status: Int32)? {
        ended.withLock { ended in
            if let ended { return ended }
            var status: Int32 = 0
            var reaped: pid_t
            repeat { reaped = waitpid(processIdentifier, &status, WNOHANG) } while reaped == -1 && errno == EINTR
            guard reaped == processIdentifier else { return nil }
            ended = status & 0x7f == 0 ? (.exit, (status >> 8) & 0xff) : (.uncaughtSignal, status & 0x7f)
            return ended
        }
    }

    /// Adds "start in `folder`" with glibc's `posix_spawn_file_actions_addchdir_np` (2.29 and
    /// later), which Swift does not import, so it is looked up.
    private static func changeDirectory(_ actions: inout posix_spawn_file_actions_t, to folder: String) throws {
        typealias AddChdir = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32
        guard let symbol = dlsym(nil, "posix_spawn_file_actions_addchdir_np") else {
            throw ChildProcessError("this C library cannot start a child in another folder")
        }
        _ = unsafeBitCast(symbol, to: AddChdir.self)(&actions, folder)
    }

    /// Adds "close every descriptor from 3 up" to `actions`, with glibc's
    /// `posix_spawn_file_actions_addclosefrom_np` (2.34 and later, looked up for the same
    /// reason). Without it, descriptors marked close-on-exec (NIO's, SQLite's) still close.
    private static func closeInheritedDescriptors(_ actions: inout posix_spawn_file_actions_t) {
        typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
        guard let symbol = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np") else { return }
        _ = unsafeBitCast(symbol, to: AddCloseFrom.self)(&actions, 3)
    }
}

/// A pipe whose two ends close on exec: a child gets an end only as one of its standard
/// descriptors (`dup2` clears the flag on the copy).
public struct ChildPipe: Sendable {
    public let readEnd: Int32
    public let writeEnd: Int32

    public init() throws {
        var ends: [Int32] = [-1, -1]
        // (pipe2 is not imported; a child started between the two calls closes them anyway.)
        guard pipe(&ends) == 0 else { throw ChildProcessError("pipe failed: errno \(errno)") }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        (readEnd, writeEnd) = (ends[0], ends[1])
    }

    /// Closes the end this process wrote to, once a child holds its copy: the reader then sees
    /// the end of the stream when the child ends.
    public func closeWriteEnd() { _ = close(writeEnd) }

    /// Closes the end this process reads from, once done with it.
    public func closeReadEnd() { _ = close(readEnd) }

    /// Reads until the writers have all closed.
    public func readToEnd() -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16384)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(readEnd, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return bytes }
            bytes += chunk[..<count]
        }
    }
}

public struct ChildProcessError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
