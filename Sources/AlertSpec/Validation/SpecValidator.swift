/// Checks a spec against every rule a client relies on and normalizes what has one right
/// answer, returning every problem at once.
///
/// ```swift
/// let result = SpecValidator(directory: registry).validate(draft)
/// if !result.isValid { print(result.errors) }   // [SpecIssue(pointer: "/actions", code: "no-action", …)]
/// ```
public struct SpecValidator: Sendable {
    /// Resolves `next` actions; without one they are checked for form only.
    public var directory: (any AlertDirectory)?

    public init(directory: (any AlertDirectory)? = nil) {
        self.directory = directory
    }

    /// Every error and warning of `draft`, and the draft normalized (of several primary
    /// buttons only the last stays primary). A rendered ``AlertSpec`` is checked as
    /// `SpecDraft(priority: spec.priority, body: spec.body)`.
    public func validate(_ draft: SpecDraft) -> SpecValidation {
        var checker = SpecChecker()
        var normalized = draft
        checker.integer("/priority", draft.priority, 0...1000)
        switch draft.body {
        case .alert(var dialog):
            check(&dialog, &checker)
            normalized.body = .alert(dialog)
        case .sheet(var sheet):
            check(&sheet, &checker)
            normalized.body = .sheet(sheet)
        case .hud(let hud):
            check(hud, &checker)
        case .toast(let toast):
            check(toast, &checker)
        case .card(let card):
            check(card, &checker)
        }
        return SpecValidation(draft: normalized, errors: checker.errors, warnings: checker.warnings)
    }

    // MARK: Buttons

    /// Checks buttons as one group (ids unique) and keeps only the last primary.
    func check(_ actions: inout [AlertSpec.Action], at pointer: String, _ checker: inout SpecChecker, idsSeen: inout SeenIDs) {
        // Read, not modified: `actions[index]` on the inout array went through its modify
        // accessor, which copied the whole array when the draft still shared it.
        for (index, action) in actions.enumerated() {
            check(action, at: "\(pointer)/\(index)", &checker, idsSeen: &idsSeen)
        }
        guard let last = actions.lastIndex(where: { $0.role == .primary }) else { return }
        for index in actions.indices[..<last] where actions[index].role == .primary {
            checker.warn(
                "\(pointer)/\(index)/role", "several-primaries",
                "Only one button can be primary; the last one marked wins, so this one is shown as default.")
            if actions[index].appearance == .standard(for: .primary) { actions[index].appearance = .standard(for: .default) }
            actions[index].role = .default
        }
    }

    /// One button; `pointer` is made only for a rule it breaks.
    func check(
        _ action: AlertSpec.Action, at pointer: @autoclosure () -> String, _ checker: inout SpecChecker, idsSeen: inout SeenIDs
    ) {
        checker.text(pointer() + "/id", action.id, limit: SpecLimits.identifier, required: true)
        if !action.id.isEmpty, !idsSeen.insert(action.id) {
            checker.error(pointer() + "/id", "duplicate-id", "Another button already has the id \"\(action.id)\".")
        }
        checker.text(pointer() + "/label", action.label, limit: SpecLimits.label, required: true)
        check(action.action, at: pointer() + "/action", &checker)
        let appearance = action.appearance
        checker.font(pointer() + "/appearance/font", appearance.font)
        checker.color(pointer() + "/appearance/color", appearance.color)
        checker.color(pointer() + "/appearance/backgroundColor", appearance.backgroundColor)
        checker.color(pointer() + "/appearance/borderColor", appearance.borderColor)
        checker.number(pointer() + "/appearance/borderWidth", appearance.borderWidth, 0...20)
        checker.number(pointer() + "/appearance/cornerRadius", appearance.cornerRadius, 0...100)
    }

    func check(_ action: AlertActionType, at pointer: @autoclosure () -> String, _ checker: inout SpecChecker) {
        switch action {
        case .dismiss, .requestPermission: break
        case .event(let name): checker.text(pointer() + "/name", name, limit: SpecLimits.label, required: true)
        case .openURL(let url): checker.url(pointer() + "/url", url)
        case .next(let alert, let params):
            let parts = alert.split(separator: "/", omittingEmptySubsequences: false)
            if alert.utf8.count > SpecLimits.alertID, alert.count > SpecLimits.alertID {
                return checker.error(pointer() + "/alert", "text-too-long", "An alert id has at most \(SpecLimits.alertID) characters.")
            }
            guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else {
                return checker.error(pointer() + "/alert", "invalid-alert-id", "\"\(alert)\" is not of the form catalog/type.")
            }
            if let problem = directory?.problem(alert: alert, parameters: params) {
                checker.error(problem.code == "unknown-alert" ? pointer() + "/alert" : pointer() + "/params", problem.code, problem.message)
            }
        }
    }

    // MARK: Alert and sheet

    func check(_ dialog: inout AlertSpec.Dialog, _ checker: inout SpecChecker) {
        if (dialog.title ?? "").isEmpty, (dialog.message ?? "").isEmpty {
            checker.error("/title", "missing-text", "An alert needs a title, a message, or both.")
        }
        checker.text("/title", dialog.title, limit: SpecLimits.title)
        checker.text("/message", dialog.message, limit: SpecLimits.message)
        checker.image("/image", dialog.image)
        checker.text("/input/placeholder", dialog.input?.placeholder, limit: SpecLimits.title)

        if let issue = SpecLimits.countIssue(dialog.actions.count, SpecLimits.actions, "buttons", code: "too-many-actions", at: "/actions") {
            checker.errors.append(issue)
        }
        var ids = SeenIDs()
        check(&dialog.actions, at: "/actions", &checker, idsSeen: &ids)
        if !dialog.actions.contains(where: { $0.role != .cancel }) {
            checker.error("/actions", "no-action", "An alert needs at least one button that is not a cancel (an OK or a custom one).")
        }
        if let first = dialog.actions.firstIndex(where: { $0.role == .cancel }) {
            for index in dialog.actions.indices[(first + 1)...] where dialog.actions[index].role == .cancel {
                checker.error("/actions/\(index)/role", "several-cancels", "An alert has at most one cancel button.")
            }
        }

        let presentation = dialog.presentation
        checker.color("/presentation/maskColor", presentation.maskColor)
        checker.number("/presentation/animationDuration", presentation.animationDuration, 0...10)
        let spacing = presentation.spacing
        checker.number("/presentation/spacing/contentInset", spacing.contentInset, 0...200)
        checker.number("/presentation/spacing/titleToMessage", spacing.titleToMessage, 0...200)
        checker.number("/presentation/spacing/messageToActions", spacing.messageToActions, 0...200)
        checker.number("/presentation/spacing/betweenActions", spacing.betweenActions, 0...200)
        let appearance = dialog.appearance
        checker.textStyle("/appearance/title", appearance.title)
        checker.textStyle("/appearance/message", appearance.message)
        checker.color("/appearance/backgroundColor", appearance.backgroundColor)
        checker.color("/appearance/borderColor", appearance.borderColor)
        checker.number("/appearance/borderWidth", appearance.borderWidth, 0...20)
        checker.number("/appearance/cornerRadius", appearance.cornerRadius, 0...100)
        checker.offset("/appearance/offset", appearance.offset)
    }

    func check(_ sheet: inout AlertSpec.Sheet, _ checker: inout SpecChecker) {
        checker.text("/title", sheet.title, limit: SpecLimits.title)
        checker.text("/message", sheet.message, limit: SpecLimits.message)
        if let issue = SpecLimits.countIssue(sheet.options.count, SpecLimits.options, "options", code: "too-many-options", at: "/options") {
            checker.errors.append(issue)
        }
        var ids = SeenIDs()
        check(&sheet.options, at: "/options", &checker, idsSeen: &ids)
        if sheet.options.isEmpty { checker.error("/options", "no-option", "A sheet needs at least one option.") }
        for (index, option) in sheet.options.enumerated() where option.role == .cancel {
            checker.error("/options/\(index)/role", "cancel-option", "A sheet's cancel goes in `cancel`, not among the options.")
        }
        check(sheet.cancel, at: "/cancel", &checker, idsSeen: &ids)
        if sheet.cancel.role != .cancel {
            checker.error("/cancel/role", "invalid-role", "A sheet's cancel has the role cancel.")
        }
    }

    // MARK: HUD

    func check(_ hud: AlertSpec.HUD, _ checker: inout SpecChecker) {
        checker.text("/text", hud.text, limit: SpecLimits.title)
        checker.number("/progress", hud.progress, 0...1)
        if hud.progress != nil, hud.state != .progress {
            checker.error("/progress", "progress-not-allowed", "Only a progress HUD shows progress.")
        }
        checker.number("/autoHide", hud.autoHide, 0...60)
    }
}
