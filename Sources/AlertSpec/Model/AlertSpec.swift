/// A rendered popup: what a client needs to draw one alert, in one language.
///
/// The JSON form is the envelope (`schemaVersion`, `id`, `kind`, `lane`, `locale`, `direction`,
/// `priority`) followed by the kind's own fields, in a fixed order.
public struct AlertSpec: Sendable, Equatable, Codable {
    /// Bumped on breaking changes to the JSON form.
    public static let currentSchemaVersion = 1

    public var schemaVersion: Int
    /// `catalog/type`, e.g. `app/questionExit`.
    public var id: String
    /// The locale actually rendered, after negotiation.
    public var locale: String
    public var direction: TextDirection
    /// 0…1000, higher first.
    public var priority: Int
    /// The kind and its fields.
    public var body: Body

    public enum Body: Sendable, Equatable {
        case alert(Dialog)
        case hud(HUD)

        public var kind: AlertKind {
            switch self {
            case .alert: .alert
            case .hud: .hud
            }
        }
    }

    public init(
        id: String, locale: String, direction: TextDirection? = nil, priority: Int, body: Body,
        schemaVersion: Int = AlertSpec.currentSchemaVersion
    ) {
        self.schemaVersion = schemaVersion
        self.id = id
        self.locale = locale
        self.direction = direction ?? TextDirection(locale: locale)
        self.priority = priority
        self.body = body
    }

    public var kind: AlertKind { body.kind }
    public var lane: Lane { body.kind.lane }

    private enum CodingKeys: String, CodingKey {
        case schemaVersion, id, kind, lane, locale, direction, priority
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(schemaVersion, forKey: .schemaVersion)
        try container.encode(id, forKey: .id)
        try container.encode(kind, forKey: .kind)
        try container.encode(lane, forKey: .lane)
        try container.encode(locale, forKey: .locale)
        try container.encode(direction, forKey: .direction)
        try container.encode(priority, forKey: .priority)
        switch body {
        case .alert(let dialog): try dialog.encode(to: encoder)
        case .hud(let hud): try hud.encode(to: encoder)
        }
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        schemaVersion = try container.decode(Int.self, forKey: .schemaVersion)
        id = try container.decode(String.self, forKey: .id)
        locale = try container.decode(String.self, forKey: .locale)
        direction = try container.decode(TextDirection.self, forKey: .direction)
        priority = try container.decode(Int.self, forKey: .priority)
        switch try container.decode(AlertKind.self, forKey: .kind) {
        case .alert: body = .alert(try Dialog(from: decoder))
        case .hud: body = .hud(try HUD(from: decoder))
        case let kind:
            throw DecodingError.dataCorruptedError(
                forKey: .kind, in: container, debugDescription: "kind \"\(kind.rawValue)\" is not supported yet")
        }
    }
}
