import AlertSpec

/// The built-in `app` catalog: the popups of a question-and-answer app with messaging.
///
/// Each case is one alert type; its labelled associated values are its parameters. Strings are
/// written in the source language (English) and keyed `<type>.<part>`.
public enum AppAlert: AlertTarget {
    /// Leaving the question editor with unsaved text.
    case questionExit
    /// Leaving the answer editor with unsaved text.
    case answerExit
    /// Logging out, confirmed with the standard OK and Cancel buttons.
    case logoutConfirm
    /// New messages arrived from someone; opens the inbox.
    case newMessages(count: Int, sender: String)
    /// Asks before the system's notification permission prompt.
    case pushPermission
    /// Work in progress.
    case loading
    /// Something was saved.
    case saved
    /// Something failed.
    case failed

    public static var samples: [AppAlert] {
        [.questionExit, .answerExit, .logoutConfirm, .newMessages(count: 3, sender: "Ana"), .pushPermission,
         .loading, .saved, .failed]
    }

    public var kind: AlertKind {
        switch self {
        case .questionExit, .answerExit, .logoutConfirm, .newMessages, .pushPermission: .alert
        case .loading, .saved, .failed: .hud
        }
    }

    public var style: AlertStyle {
        switch self {
        case .pushPermission: .large
        default: .dialog
        }
    }

    public var title: LocalizedText? {
        switch self {
        case .questionExit: LocalizedText("questionExit.title", default: "Leave this question?")
        case .answerExit: LocalizedText("answerExit.title", default: "Discard your answer?")
        case .logoutConfirm: LocalizedText("logoutConfirm.title", default: "Log out?")
        case .newMessages(_, let sender):
            LocalizedText("newMessages.title", default: "New messages from %@", .string(sender))
        case .pushPermission: LocalizedText("pushPermission.title", default: "Stay in the loop")
        case .loading, .saved, .failed: nil
        }
    }

    public var message: LocalizedText? {
        switch self {
        case .questionExit:
            LocalizedText("questionExit.message", default: "What you have written so far will not be saved.")
        case .answerExit:
            LocalizedText("answerExit.message", default: "Your answer has not been posted yet. If you leave now, it is lost.")
        case .logoutConfirm:
            LocalizedText("logoutConfirm.message", default: "You can log back in at any time with your email address.")
        case .newMessages(let count, _):
            LocalizedText("newMessages.message", default: "Unread messages: %lld", .integer(count))
        case .pushPermission:
            LocalizedText(
                "pushPermission.message",
                default: "Turn on notifications to hear when someone answers your question or sends you a message.")
        case .loading: LocalizedText("loading.message", default: "Loading…")
        case .saved: LocalizedText("saved.message", default: "Saved")
        case .failed: LocalizedText("failed.message", default: "Something went wrong. Please try again.")
        }
    }

    public var image: AlertImage? {
        switch self {
        case .newMessages: .asset("envelope", tint: "#007AFF")
        case .pushPermission: .asset("bell.badge", tint: "#FF9500")
        default: nil
        }
    }

    public var actions: [AlertAction] {
        switch self {
        case .questionExit:
            [.cancel(),
             AlertAction(id: "leave", label: LocalizedText("questionExit.leave", default: "Leave"), role: .destructive,
                         action: .event(name: "questionExit.leave"))]
        case .answerExit:
            [.cancel(),
             AlertAction(id: "discard", label: LocalizedText("answerExit.discard", default: "Discard"), role: .destructive,
                         action: .event(name: "answerExit.discard"))]
        case .logoutConfirm:
            [.cancel(), .ok(action: .event(name: "logout"))]
        case .newMessages:
            [AlertAction(id: "later", label: LocalizedText("newMessages.later", default: "Later"), role: .cancel),
             AlertAction(id: "read", label: LocalizedText("newMessages.read", default: "Read"), role: .primary,
                         action: .openURL(url: "alertd-demo://inbox"))]
        case .pushPermission:
            [AlertAction(id: "notNow", label: LocalizedText("pushPermission.notNow", default: "Not now"), role: .cancel),
             AlertAction(id: "allow", label: LocalizedText("pushPermission.allow", default: "Turn on"), role: .primary,
                         action: .requestPermission(.notifications))]
        case .loading, .saved, .failed: []
        }
    }

    public var priority: Int {
        switch self {
        case .logoutConfirm, .questionExit, .answerExit: 700
        case .newMessages: 400
        case .pushPermission: 300
        case .loading, .saved, .failed: 900
        }
    }

    public var hud: HUDContent {
        switch self {
        case .saved: HUDContent(state: .success, autoHide: 1.5)
        case .failed: HUDContent(state: .failed, autoHide: 3)
        default: HUDContent(state: .progress)
        }
    }

    public var presentation: Presentation {
        switch self {
        case .pushPermission: Presentation(dismissOnTapOutside: false, animation: .fade, actionsLayout: .vertical)
        case .newMessages: Presentation(dismissOnTapOutside: true)
        default: Presentation()
        }
    }

    /// Messages from one sender replace each other in the queue whatever the count.
    public var dedupeKey: String? {
        switch self {
        case .newMessages(_, let sender): "newMessages:\(sender)"
        default: nil
        }
    }
}
