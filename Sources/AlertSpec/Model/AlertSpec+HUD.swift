extension AlertSpec {
    /// A heads-up display.
    public struct HUD: Sendable, Equatable, Codable {
        public var state: HUDState
        public var text: String?
        /// 0…1, for `progress` HUDs that know how far they are.
        public var progress: Double?
        /// Seconds before the HUD hides itself; 0 keeps it until a newer HUD replaces it.
        /// Default: 0 for `progress`, 2 for `success` and `failed`.
        public var autoHide: Double

        public init(state: HUDState, text: String? = nil, progress: Double? = nil, autoHide: Double? = nil) {
            self.state = state
            self.text = text
            self.progress = progress
            self.autoHide = autoHide ?? Self.defaultAutoHide(state)
        }

        public static func defaultAutoHide(_ state: HUDState) -> Double { state == .progress ? 0 : 2 }

        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            state = try c.decode(HUDState.self, forKey: .state)
            text = try c.decodeIfPresent(String.self, forKey: .text)
            progress = try c.decodeIfPresent(Double.self, forKey: .progress)
            autoHide = try c.value(.autoHide, default: Self.defaultAutoHide(state))
        }
    }
}

/// What a HUD shows.
public enum HUDState: String, Sendable, Codable, CaseIterable {
    case progress, success, failed
}
