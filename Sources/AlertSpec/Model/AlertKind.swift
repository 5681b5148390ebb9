/// The popup kinds a client knows how to draw.
public enum AlertKind: String, Sendable, Codable, CaseIterable {
    /// A modal dialog (`style` dialog or large).
    case alert
    /// An action sheet.
    case sheet
    /// A heads-up display: progress, success, failure.
    case hud
    /// A non-intrusive notification.
    case toast
    /// A bottom-card flow.
    case card

    /// Where the kind queues: modal kinds present one at a time, toasts beside them, HUDs never wait.
    public var lane: Lane {
        switch self {
        case .alert, .sheet, .card: .modal
        case .toast: .toast
        case .hud: .hud
        }
    }
}

/// A delivery lane of a session's queue.
public enum Lane: String, Sendable, Codable, CaseIterable {
    case modal, toast, hud
}

/// Writing direction of the rendered text.
public enum TextDirection: String, Sendable, Codable {
    case ltr, rtl

    /// `rtl` for Arabic, Hebrew, Persian and Urdu (and their regional variants), else `ltr`.
    public init(locale: String) {
        let language = locale.split(whereSeparator: { $0 == "-" || $0 == "_" }).first.map { $0.lowercased() } ?? ""
        self = ["ar", "he", "iw", "fa", "ur"].contains(language) ? .rtl : .ltr
    }
}
