extension AlertSpec {
    /// A modal alert dialog.
    public struct Dialog: Sendable, Equatable, Codable {
        public var style: AlertStyle
        public var title: String?
        public var message: String?
        public var image: AlertImage?
        public var actions: [Action]
        public var presentation: Presentation

        public init(
            style: AlertStyle = .dialog, title: String? = nil, message: String? = nil, image: AlertImage? = nil,
            actions: [Action], presentation: Presentation = Presentation()
        ) {
            self.style = style
            self.title = title
            self.message = message
            self.image = image
            self.actions = actions
            self.presentation = presentation
        }
    }

    /// A rendered button or option.
    public struct Action: Sendable, Equatable, Codable {
        /// Stable id, echoed back in the acknowledgement.
        public var id: String
        /// The localized words on the button.
        public var label: String
        public var role: ActionRole
        public var action: AlertActionType

        public init(id: String, label: String, role: ActionRole = .default, action: AlertActionType = .dismiss) {
            self.id = id
            self.label = label
            self.role = role
            self.action = action
        }
    }

    /// A heads-up display.
    public struct HUD: Sendable, Equatable, Codable {
        public var state: HUDState
        public var text: String?
        /// 0…1, for `progress` HUDs that know how far they are.
        public var progress: Double?
        /// Seconds after which the HUD hides itself; nil keeps it until replaced.
        public var autoHide: Double?

        public init(state: HUDState, text: String? = nil, progress: Double? = nil, autoHide: Double? = nil) {
            self.state = state
            self.text = text
            self.progress = progress
            self.autoHide = autoHide
        }
    }
}

/// How an alert dialog is drawn.
public enum AlertStyle: String, Sendable, Codable, CaseIterable {
    /// The standard system-sized dialog.
    case dialog
    /// A larger dialog with room for an image.
    case large
}

/// What a button means; clients style it accordingly.
public enum ActionRole: String, Sendable, Codable, CaseIterable {
    case `default`, cancel, destructive, primary
}

/// What a HUD shows.
public enum HUDState: String, Sendable, Codable, CaseIterable {
    case progress, success, failed
}

/// An image: a bundled asset or a URL, optionally tinted.
public struct AlertImage: Sendable, Equatable, Codable {
    public var asset: String?
    public var url: String?
    /// `#RRGGBB` or `#RRGGBBAA`.
    public var tint: String?

    public static func asset(_ name: String, tint: String? = nil) -> Self { .init(asset: name, url: nil, tint: tint) }
    public static func url(_ url: String, tint: String? = nil) -> Self { .init(asset: nil, url: url, tint: tint) }
}

/// How an alert dialog appears and lays out its buttons.
public struct Presentation: Sendable, Equatable, Codable {
    /// Colour of the mask behind the alert, `#RRGGBBAA`.
    public var maskColor: String
    /// Whether tapping the mask dismisses the alert.
    public var dismissOnTapOutside: Bool
    public var animation: Animation
    /// Seconds the animation takes.
    public var animationDuration: Double
    /// How the buttons are arranged.
    public var actionsLayout: Layout

    public enum Animation: String, Sendable, Codable, CaseIterable {
        /// Scale from 0.1 to 1.
        case standard
        case fade
    }

    public enum Layout: String, Sendable, Codable, CaseIterable {
        case horizontal, vertical
    }

    public init(
        maskColor: String = "#00000066", dismissOnTapOutside: Bool = false, animation: Animation = .standard,
        animationDuration: Double = 0.25, actionsLayout: Layout = .horizontal
    ) {
        self.maskColor = maskColor
        self.dismissOnTapOutside = dismissOnTapOutside
        self.animation = animation
        self.animationDuration = animationDuration
        self.actionsLayout = actionsLayout
    }
}
