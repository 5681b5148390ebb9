/// A spec as a client or an operator writes it: the kind, a priority and the kind's fields,
/// without the envelope fields the server fills (`schemaVersion`, `id`, `lane`, `locale`,
/// `direction`). `POST /v1/specs/validate` takes one; file catalogs hold them.
public struct SpecDraft: Sendable, Equatable, Codable {
    /// 0…1000. Default: 500.
    public var priority: Int
    public var body: AlertSpec.Body

    public static let defaultPriority = 500

    public init(priority: Int = SpecDraft.defaultPriority, body: AlertSpec.Body) {
        self.priority = priority
        self.body = body
    }

    public var kind: AlertKind { body.kind }

    private enum CodingKeys: String, CodingKey { case kind, priority }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let kindName = try c.decode(String.self, forKey: .kind)
        guard let kind = AlertKind(rawValue: kindName) else {
            throw SpecDecodingError(
                codingPath: c.codingPath + [CodingKeys.kind], code: "unknown-kind",
                message: "\"\(kindName)\" is not a kind; use alert, sheet, hud, toast or card.")
        }
        priority = try c.wholeNumber(.priority, default: Self.defaultPriority)
        body = try AlertSpec.Body(kind: kind, from: decoder)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(kind, forKey: .kind)
        try c.encode(priority, forKey: .priority)
        try body.encodeFields(to: encoder)
    }

    /// The rendered spec this draft becomes under an id and a locale.
    public func spec(id: String, locale: String) -> AlertSpec {
        AlertSpec(id: id, locale: locale, priority: priority, body: body)
    }
}

/// A decoding failure that already knows its JSON pointer, stable code and sentence.
public struct SpecDecodingError: Error, Sendable, Equatable {
    public var pointer: String
    public var code: String
    public var message: String

    public init(codingPath: [any CodingKey], code: String, message: String) {
        self.pointer = JSONPointer.to(codingPath)
        self.code = code
        self.message = message
    }
}

/// RFC 6901 JSON pointers.
public enum JSONPointer {
    /// The pointer for a coding path: `/actions/1/role`.
    public static func to(_ path: [any CodingKey]) -> String {
        path.map { "/" + escape($0.intValue.map(String.init) ?? $0.stringValue) }.joined()
    }

    public static func escape(_ token: String) -> String {
        // Most tokens have neither: a look at the bytes costs a fraction of two searches.
        guard token.utf8.contains(where: { $0 == UInt8(ascii: "~") || $0 == UInt8(ascii: "/") }) else { return token }
        return token.replacing("~", with: "~0").replacing("/", with: "~1")
    }
}
