extension AlertSpec {
    /// An action sheet: optional text, a list of options and one cancel.
    public struct Sheet: Sendable, Equatable, Codable {
        public var title: String?
        public var message: String?
        /// The choices, in display order; none of them is a cancel.
        public var options: [Action]
        /// The way out; its role is `cancel`.
        public var cancel: Action

        public init(title: String? = nil, message: String? = nil, options: [Action], cancel: Action) {
            self.title = title
            self.message = message
            self.options = options
            self.cancel = cancel
        }
    }
}
