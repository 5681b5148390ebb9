extension AlertTarget {
    /// The alert in `locale` (one of the localizer's locales) as a draft.
    public func draft(locale: String, localizer: some Localizer) throws -> SpecDraft {
        try draft(in: RenderContext(locale: locale), localizer: localizer)
    }

    /// The alert for `context` (its locale one of the localizer's) as a draft: kind, priority
    /// and fields, every text in words. Validation and the envelope come after.
    public func draft(in context: RenderContext, localizer: some Localizer) throws -> SpecDraft {
        func words(_ text: LocalizedText) -> String { localizer.string(text, in: context) }
        func rendered(_ action: AlertAction) -> AlertSpec.Action {
            AlertSpec.Action(id: action.id, label: words(action.label), role: action.role, action: action.action)
        }

        let body: AlertSpec.Body
        switch kind {
        case .alert:
            body = .alert(
                AlertSpec.Dialog(
                    style: style, title: title.map(words), message: message.map(words), image: image,
                    input: input.map { AlertInput(placeholder: $0.placeholder.map(words), keyboard: $0.keyboard, secure: $0.secure) },
                    actions: actions.map(rendered), presentation: presentation, appearance: appearance))
        case .sheet:
            let cancel = actions.last { $0.role == .cancel } ?? .cancel()
            body = .sheet(
                AlertSpec.Sheet(
                    title: title.map(words), message: message.map(words),
                    options: actions.filter { $0.role != .cancel }.map(rendered), cancel: rendered(cancel)))
        case .hud:
            let hud = self.hud
            body = .hud(
                AlertSpec.HUD(state: hud.state, text: (message ?? title).map(words), progress: hud.progress, autoHide: hud.autoHide))
        case .toast:
            guard let toast else { throw RenderError.missingContent(kind) }
            body = .toast(toast.map(words))
        case .card:
            guard let card else { throw RenderError.missingContent(kind) }
            body = .card(card.map(words))
        }
        return SpecDraft(priority: priority, body: body)
    }
}

/// Why a catalog entry could not be rendered.
public enum RenderError: Error, Sendable, Equatable, CustomStringConvertible {
    case missingContent(AlertKind)

    public var description: String {
        switch self {
        case .missingContent(let kind): "an alert of kind \(kind.rawValue) needs its `\(kind.rawValue)` property"
        }
    }
}
