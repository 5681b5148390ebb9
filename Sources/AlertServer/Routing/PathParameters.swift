/// The values of a route's `{name}` segments, in the route's order. A route has one or two, so
/// the first two are held inline and any others in a small array: searched in order, no
/// hashing, and no allocation for alertd's routes.
///
/// ```swift
/// let parameters: PathParameters = ["catalog": "app", "type": "questionExit"]
/// parameters["type"]   // "questionExit"
/// ```
public struct PathParameters: Sendable, Equatable, ExpressibleByDictionaryLiteral {
    private var first: (name: String, value: String)?
    private var second: (name: String, value: String)?
    private var more: [(name: String, value: String)] = []

    public init(dictionaryLiteral elements: (String, String)...) {
        for (name, value) in elements { append(name, value) }
    }

    init() {}

    private var count: Int { first == nil ? 0 : second == nil ? 1 : 2 + more.count }

    /// The value of `{name}`, or nil when the route has no such segment.
    public subscript(name: String) -> String? {
        if let first, first.name == name { return first.value }
        if let second, second.name == name { return second.value }
        return more.first { $0.name == name }?.value
    }

    mutating func append(_ name: String, _ value: String) {
        if first == nil {
            first = (name, value)
        } else if second == nil {
            second = (name, value)
        } else {
            more.append((name: name, value: value))
        }
    }

    /// The same names with the same values, in any order.
    public static func == (lhs: PathParameters, rhs: PathParameters) -> Bool {
        let pairs = [lhs.first, lhs.second].compactMap { $0 } + lhs.more
        return lhs.count == rhs.count && pairs.allSatisfy { rhs[$0.name] == $0.value }
    }
}
