/// The values of a route's `{name}` segments, in the route's order. A route has one or two, so
/// they are a small array searched in order: no hashing, one allocation.
///
/// ```swift
/// let parameters: PathParameters = ["catalog": "app", "type": "questionExit"]
/// parameters["type"]   // "questionExit"
/// ```
public struct PathParameters: Sendable, Equatable, ExpressibleByDictionaryLiteral {
    private var pairs: [(name: String, value: String)]

    public init(dictionaryLiteral elements: (String, String)...) {
        pairs = elements.map { (name: $0.0, value: $0.1) }
    }

    init(capacity: Int) {
        pairs = []
        pairs.reserveCapacity(capacity)
    }

    /// The value of `{name}`, or nil when the route has no such segment.
    public subscript(name: String) -> String? {
        pairs.first { $0.name == name }?.value
    }

    mutating func append(_ name: String, _ value: String) {
        pairs.append((name: name, value: value))
    }

    /// The same names with the same values, in any order.
    public static func == (lhs: PathParameters, rhs: PathParameters) -> Bool {
        lhs.pairs.count == rhs.pairs.count && lhs.pairs.allSatisfy { rhs[$0.name] == $0.value }
    }
}
