/// A button or option as a catalog declares it: its words are localized when rendered.
public struct AlertAction: Sendable, Equatable {
    /// Stable within the alert; the app echoes it when it acknowledges.
    public var id: String
    public var label: LocalizedText
    public var role: ActionRole
    public var action: AlertActionType

    public init(id: String, label: LocalizedText, role: ActionRole = .default, action: AlertActionType = .dismiss) {
        self.id = id
        self.label = label
        self.role = role
        self.action = action
    }

    /// The platform's standard OK button, in the platform's words.
    public static func ok(role: ActionRole = .primary, action: AlertActionType = .dismiss) -> AlertAction {
        AlertAction(id: "ok", label: SystemText.ok.text, role: role, action: action)
    }

    /// The platform's standard Cancel button, in the platform's words.
    public static func cancel(action: AlertActionType = .dismiss) -> AlertAction {
        AlertAction(id: "cancel", label: SystemText.cancel.text, role: .cancel, action: action)
    }
}

/// A HUD's state and timing, as a catalog declares it.
public struct HUDContent: Sendable, Equatable {
    public var state: HUDState
    public var progress: Double?
    public var autoHide: Double?

    public init(state: HUDState, progress: Double? = nil, autoHide: Double? = nil) {
        self.state = state
        self.progress = progress
        self.autoHide = autoHide
    }
}

/// A text field as a catalog declares it: its placeholder is localized when rendered.
public struct InputField: Sendable, Equatable {
    public var placeholder: LocalizedText?
    public var keyboard: AlertInput.Keyboard
    public var secure: Bool

    public init(placeholder: LocalizedText? = nil, keyboard: AlertInput.Keyboard = .default, secure: Bool = false) {
        self.placeholder = placeholder
        self.keyboard = keyboard
        self.secure = secure
    }
}
