extension AlertTarget {
    /// Renders the alert as a spec in `locale` (one of the localizer's locales).
    ///
    /// - Parameter id: the spec's id, `catalog/type`.
    public func render(id: String, locale: String, localizer: some Localizer) throws -> AlertSpec {
        func words(_ text: LocalizedText?) -> String? { text.map { localizer.string($0, locale: locale) } }

        let body: AlertSpec.Body
        switch kind {
        case .alert:
            let actions = self.actions.map {
                AlertSpec.Action(
                    id: $0.id, label: localizer.string($0.label, locale: locale), role: $0.role, action: $0.action)
            }
            body = .alert(
                AlertSpec.Dialog(
                    style: style, title: words(title), message: words(message), image: image, actions: actions,
                    presentation: presentation))
        case .hud:
            let hud = self.hud
            body = .hud(
                AlertSpec.HUD(
                    state: hud.state, text: words(message ?? title), progress: hud.progress, autoHide: hud.autoHide))
        case .sheet, .toast, .card:
            throw RenderError.unsupportedKind(kind)
        }
        return AlertSpec(id: id, locale: locale, priority: priority, body: body)
    }
}

/// Why a catalog entry could not be rendered.
public enum RenderError: Error, Sendable, Equatable, CustomStringConvertible {
    case unsupportedKind(AlertKind)

    public var description: String {
        switch self {
        case .unsupportedKind(let kind): "alerts of kind \(kind.rawValue) cannot be rendered yet"
        }
    }
}
