import Foundation
import Locking
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The clusters this process made and has not removed yet, removed at its exit (`atexit`), so
/// neither passing nor failing tests leave a server running or a folder behind.
enum ClusterRegistry {
    /// Data directory → temporary folder.
    private static let clusters = Locked<[String: String]>([:])
    private static let installed = Atomic<Bool>(false)

    static func register(data: String, root: String) {
        if installed.compareExchange(expected: false, desired: true, ordering: .relaxed).exchanged {
            atexit { ClusterRegistry.removeAll() }
        }
        clusters.withLock { $0[data] = root }
    }

    /// Stops the cluster at once and deletes its folder, if it is still registered.
    static func remove(data: String, root: String) {
        guard clusters.withLock({ $0.removeValue(forKey: data) }) != nil else { return }
        ClusterCommands.shell(ClusterCommands.removal(data: data, root: root))
    }

    static func removeAll() {
        let all = clusters.withLock { clusters in
            defer { clusters = [:] }
            return clusters
        }
        for (data, root) in all {
            ClusterCommands.shell(ClusterCommands.removal(data: data, root: root))
        }
    }
}
