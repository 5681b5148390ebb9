extension AlertSpec {
    /// A modal alert dialog.
    public struct Dialog: Sendable, Equatable, Codable {
        /// Default: `dialog`.
        public var style: AlertStyle
        public var title: String?
        public var message: String?
        public var image: AlertImage?
        /// A text field under the message.
        public var input: AlertInput?
        public var actions: [Action]
        /// Default: `Presentation()`.
        public var presentation: Presentation
        /// Default: `DialogAppearance()`.
        public var appearance: DialogAppearance

        public init(
            style: AlertStyle = .dialog, title: String? = nil, message: String? = nil, image: AlertImage? = nil,
            input: AlertInput? = nil, actions: [Action], presentation: Presentation = Presentation(),
            appearance: DialogAppearance = DialogAppearance()
        ) {
            self.style = style
            self.title = title
            self.message = message
            self.image = image
            self.input = input
            self.actions = actions
            self.presentation = presentation
            self.appearance = appearance
        }

        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            style = try c.value(.style, default: .dialog)
            title = try c.decodeIfPresent(String.self, forKey: .title)
            message = try c.decodeIfPresent(String.self, forKey: .message)
            image = try c.decodeIfPresent(AlertImage.self, forKey: .image)
            input = try c.decodeIfPresent(AlertInput.self, forKey: .input)
            actions = try c.value(.actions, default: [])
            presentation = try c.value(.presentation, default: Presentation())
            appearance = try c.value(.appearance, default: DialogAppearance())
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

/// A text field shown under an alert's message.
public struct AlertInput: Sendable, Equatable, Codable {
    public var placeholder: String?
    /// Default: `default`.
    public var keyboard: Keyboard
    /// Hides what is typed. Default: false.
    public var secure: Bool

    /// The keyboard the input field brings up.
    public enum Keyboard: String, Sendable, Codable, CaseIterable { case `default`, email, number, phone, url }

    public init(placeholder: String? = nil, keyboard: Keyboard = .default, secure: Bool = false) {
        self.placeholder = placeholder
        self.keyboard = keyboard
        self.secure = secure
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        placeholder = try c.decodeIfPresent(String.self, forKey: .placeholder)
        keyboard = try c.value(.keyboard, default: .default)
        secure = try c.value(.secure, default: false)
    }
}

/// How an alert dialog appears and lays out its parts.
public struct Presentation: Sendable, Equatable, Codable {
    /// Colour of the mask behind the alert. Default: `#00000066`.
    public var maskColor: String
    /// Whether tapping the mask dismisses the alert. Default: false.
    public var dismissOnTapOutside: Bool
    /// Default: `standard` (scale from 0.1 to 1).
    public var animation: Animation
    /// Seconds the animation takes. Default: 0.25.
    public var animationDuration: Double
    /// Image beside (`horizontal`) or above (`vertical`) the title. Default: `vertical`.
    public var headerLayout: Layout
    /// Buttons side by side or stacked. Default: `horizontal`.
    public var actionsLayout: Layout
    /// Default: `Spacing()`.
    public var spacing: Spacing

    /// How the alert appears: `standard` scales from 0.1 to 1, `fade` fades in.
    public enum Animation: String, Sendable, Codable, CaseIterable { case standard, fade }
    /// Side by side (`horizontal`) or one above the other (`vertical`).
    public enum Layout: String, Sendable, Codable, CaseIterable { case horizontal, vertical }

    /// Spaces in points.
    public struct Spacing: Sendable, Equatable, Codable {
        /// Around the content. Default: 16.
        public var contentInset: Double
        /// Between the title and the message. Default: 8.
        public var titleToMessage: Double
        /// Between the text and the buttons. Default: 16.
        public var messageToActions: Double
        /// Between two buttons. Default: 8.
        public var betweenActions: Double

        public init(contentInset: Double = 16, titleToMessage: Double = 8, messageToActions: Double = 16, betweenActions: Double = 8) {
            self.contentInset = contentInset
            self.titleToMessage = titleToMessage
            self.messageToActions = messageToActions
            self.betweenActions = betweenActions
        }

        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            contentInset = try c.value(.contentInset, default: 16)
            titleToMessage = try c.value(.titleToMessage, default: 8)
            messageToActions = try c.value(.messageToActions, default: 16)
            betweenActions = try c.value(.betweenActions, default: 8)
        }
    }

    public init(
        maskColor: String = "#00000066", dismissOnTapOutside: Bool = false, animation: Animation = .standard,
        animationDuration: Double = 0.25, headerLayout: Layout = .vertical, actionsLayout: Layout = .horizontal,
        spacing: Spacing = Spacing()
    ) {
        self.maskColor = maskColor
        self.dismissOnTapOutside = dismissOnTapOutside
        self.animation = animation
        self.animationDuration = animationDuration
        self.headerLayout = headerLayout
        self.actionsLayout = actionsLayout
        self.spacing = spacing
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        maskColor = try c.value(.maskColor, default: "#00000066")
        dismissOnTapOutside = try c.value(.dismissOnTapOutside, default: false)
        animation = try c.value(.animation, default: .standard)
        animationDuration = try c.value(.animationDuration, default: 0.25)
        headerLayout = try c.value(.headerLayout, default: .vertical)
        actionsLayout = try c.value(.actionsLayout, default: .horizontal)
        spacing = try c.value(.spacing, default: Spacing())
    }
}

/// How an alert dialog looks.
public struct DialogAppearance: Sendable, Equatable, Codable {
    /// Default: 17 pt semibold, black, centred.
    public var title: TextStyle
    /// Default: 13 pt regular, black, centred.
    public var message: TextStyle
    /// Default: `#FFFFFFFF`.
    public var backgroundColor: String
    /// Default: 0.
    public var borderWidth: Double
    /// Default: `#00000000`.
    public var borderColor: String
    /// Default: 14.
    public var cornerRadius: Double
    /// From the centre of the screen. Default: 0, 0.
    public var offset: Offset

    public static let titleStyle = TextStyle(font: Font(size: 17, weight: .semibold))
    public static let messageStyle = TextStyle(font: Font(size: 13))

    public init(
        title: TextStyle = DialogAppearance.titleStyle, message: TextStyle = DialogAppearance.messageStyle,
        backgroundColor: String = "#FFFFFFFF", borderWidth: Double = 0, borderColor: String = "#00000000",
        cornerRadius: Double = 14, offset: Offset = Offset()
    ) {
        self.title = title
        self.message = message
        self.backgroundColor = backgroundColor
        self.borderWidth = borderWidth
        self.borderColor = borderColor
        self.cornerRadius = cornerRadius
        self.offset = offset
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        title = try c.value(.title, default: Self.titleStyle) { try TextStyle(from: $0, defaults: $1) }
        message = try c.value(.message, default: Self.messageStyle) { try TextStyle(from: $0, defaults: $1) }
        backgroundColor = try c.value(.backgroundColor, default: "#FFFFFFFF")
        borderWidth = try c.value(.borderWidth, default: 0)
        borderColor = try c.value(.borderColor, default: "#00000000")
        cornerRadius = try c.value(.cornerRadius, default: 14)
        offset = try c.value(.offset, default: Offset())
    }
}
