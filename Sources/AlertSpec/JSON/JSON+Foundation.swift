import Foundation

extension JSON {
    /// The value in the form `JSONSerialization` gives (`NSNull`, `Bool`, `Int`, `Double`,
    /// `String`, `[Any]`, `[String: Any]`), for readers that take that form, such as
    /// `SpecReader.inspect(tree:)`.
    public var foundation: Any {
        switch self {
        case .null: NSNull()
        case .bool(let value): value
        case .integer(let value): value
        case .number(let value): value
        case .string(let value): value
        case .array(let items): items.map(\.foundation)
        case .object(let members): members.mapValues(\.foundation)
        }
    }
}
