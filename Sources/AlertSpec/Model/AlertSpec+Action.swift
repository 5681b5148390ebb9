extension AlertSpec {
    /// A rendered button or option.
    public struct Action: Sendable, Equatable, Codable {
        /// Stable within the alert; the app echoes it when it acknowledges.
        public var id: String
        /// The localized words on the button.
        public var label: String
        /// Default: `default`.
        public var role: ActionRole
        /// Default: `{"type": "dismiss"}`.
        public var action: AlertActionType
        /// Default: derived from the role (see `ActionAppearance.standard(for:)`).
        public var appearance: ActionAppearance

        public init(
            id: String, label: String, role: ActionRole = .default, action: AlertActionType = .dismiss,
            appearance: ActionAppearance? = nil
        ) {
            self.id = id
            self.label = label
            self.role = role
            self.action = action
            self.appearance = appearance ?? .standard(for: role)
        }

        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            id = try c.decode(String.self, forKey: .id)
            label = try c.decode(String.self, forKey: .label)
            role = try c.value(.role, default: .default)
            action = try c.value(.action, default: .dismiss)
            appearance = try c.value(.appearance, default: .standard(for: role)) { try ActionAppearance(from: $0, defaults: $1) }
        }
    }
}

/// What a button means; clients style it accordingly.
public enum ActionRole: String, Sendable, Codable, CaseIterable {
    case `default`, cancel, destructive, primary
}

/// How one button looks.
public struct ActionAppearance: Sendable, Equatable, Codable {
    public var font: Font
    public var color: String
    public var backgroundColor: String
    public var borderWidth: Double
    public var borderColor: String
    public var cornerRadius: Double

    public init(
        font: Font = Font(), color: String = "#007AFFFF", backgroundColor: String = "#00000000",
        borderWidth: Double = 0, borderColor: String = "#00000000", cornerRadius: Double = 0
    ) {
        self.font = font
        self.color = color
        self.backgroundColor = backgroundColor
        self.borderWidth = borderWidth
        self.borderColor = borderColor
        self.cornerRadius = cornerRadius
    }

    /// The platform look of a role: primary is semibold, destructive red, the rest the tint.
    public static func standard(for role: ActionRole) -> ActionAppearance {
        switch role {
        case .primary: ActionAppearance(font: Font(weight: .semibold))
        case .destructive: ActionAppearance(color: "#FF3B30FF")
        case .default, .cancel: ActionAppearance()
        }
    }

    public init(from decoder: any Decoder) throws { try self.init(from: decoder, defaults: ActionAppearance()) }

    /// Decodes what is given, the rest from `defaults` (the look of the button's role).
    init(from decoder: any Decoder, defaults standard: ActionAppearance) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        font = try c.value(.font, default: standard.font) { try Font(from: $0, defaults: $1) }
        color = try c.value(.color, default: standard.color)
        backgroundColor = try c.value(.backgroundColor, default: standard.backgroundColor)
        borderWidth = try c.value(.borderWidth, default: standard.borderWidth)
        borderColor = try c.value(.borderColor, default: standard.borderColor)
        cornerRadius = try c.value(.cornerRadius, default: standard.cornerRadius)
    }
}
