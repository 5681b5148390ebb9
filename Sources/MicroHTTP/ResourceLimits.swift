import Foundation
import Glibc

/// Process limits a server needs raised before it accepts thousands of connections.
public enum ResourceLimits {
    /// Raises the soft limit on open files to the hard limit and returns the new soft limit.
    @discardableResult
    public static func raiseOpenFileLimit() -> Int {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return -1 }
        if limit.rlim_cur < limit.rlim_max {
            var raised = limit
            raised.rlim_cur = limit.rlim_max
            if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &raised) == 0 { return Int(raised.rlim_cur) }
        }
        return Int(limit.rlim_cur)
    }
}
