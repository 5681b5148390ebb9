/// A rendered popup: what a client needs to draw one alert, in one language.
///
/// The JSON form is the envelope (`schemaVersion`, `id`, `kind`, `lane`, `locale`, `direction`,
/// `priority`) followed by the kind's own fields, in a fixed order, every field with a
/// documented default filled in.
public struct AlertSpec: Sendable, Equatable, Codable {
    /// Bumped on breaking changes to the JSON form.
    public static let currentSchemaVersion = 1

    /// The JSON form's version; ``currentSchemaVersion`` when rendered by this code.
    public var schemaVersion: Int
    /// `catalog/type`, e.g. `app/questionExit`.
    public var id: String
    /// The locale actually rendered, after negotiation.
    public var locale: String
    /// `rtl` for Arabic, Hebrew, Persian and Urdu; else `ltr`.
    public var direction: TextDirection
    /// 0…1000, higher first.
    public var priority: Int
    /// The kind and its fields.
    public var body: Body

    /// A rendered toast: its layout tree holds text, not localizable keys.
    public typealias Toast = ToastContent<String>
    /// A rendered card flow: its pages hold text, not localizable keys.
    public typealias Card = CardFlow<String>

    /// A kind and its fields.
    public enum Body: Sendable, Equatable {
        case alert(Dialog)
        case sheet(Sheet)
        case hud(HUD)
        case toast(Toast)
        case card(Card)

        /// The kind these fields belong to.
        public var kind: AlertKind {
            switch self {
            case .alert: .alert
            case .sheet: .sheet
            case .hud: .hud
            case .toast: .toast
            case .card: .card
            }
        }
    }

    /// A spec of `body`; `direction` defaults to the locale's.
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

    /// The kind: `alert`, `sheet`, `hud`, `toast` or `card`.
    public var kind: AlertKind { body.kind }
    /// The queue lane the kind presents in: `modal`, `toast` or `hud`.
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
        try body.encodeFields(to: encoder)
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        schemaVersion = try container.decode(Int.self, forKey: .schemaVersion)
        id = try container.decode(String.self, forKey: .id)
        locale = try container.decode(String.self, forKey: .locale)
        direction = try container.decode(TextDirection.self, forKey: .direction)
        priority = try container.decode(Int.self, forKey: .priority)
        let kind = try container.decode(AlertKind.self, forKey: .kind)
        if let lane = try container.decodeIfPresent(Lane.self, forKey: .lane), lane != kind.lane {
            throw SpecDecodingError(
                codingPath: container.codingPath + [CodingKeys.lane], code: "invalid-lane",
                message: "A \(kind.rawValue) goes in the \(kind.lane.rawValue) lane, not \(lane.rawValue).")
        }
        body = try Body(kind: kind, from: decoder)
    }
}

extension AlertSpec.Body {
    /// Decodes the fields of `kind` from the same object as the envelope.
    public init(kind: AlertKind, from decoder: any Decoder) throws {
        switch kind {
        case .alert: self = .alert(try AlertSpec.Dialog(from: decoder))
        case .sheet: self = .sheet(try AlertSpec.Sheet(from: decoder))
        case .hud: self = .hud(try AlertSpec.HUD(from: decoder))
        case .toast: self = .toast(try AlertSpec.Toast(from: decoder))
        case .card: self = .card(try AlertSpec.Card(from: decoder))
        }
    }

    /// Encodes the kind's fields into the same object as the envelope.
    public func encodeFields(to encoder: any Encoder) throws {
        switch self {
        case .alert(let dialog): try dialog.encode(to: encoder)
        case .sheet(let sheet): try sheet.encode(to: encoder)
        case .hud(let hud): try hud.encode(to: encoder)
        case .toast(let toast): try toast.encode(to: encoder)
        case .card(let card): try card.encode(to: encoder)
        }
    }
}
