import AlertSpec

extension AppAlert {
    /// The welcome toast: a spacer beside a stack of title and subtitle, beside an icon; it drops
    /// in with a small overshoot and slides back up when it leaves.
    public var toast: ToastContent<LocalizedText>? {
        switch self {
        case .welcomeToast(let name):
            ToastContent(
                content: .beside([
                    .spacer(GridSize(width: 1, height: 2)),
                    .stacked([
                        .text(
                            ToastText(
                                LocalizedText("welcomeToast.title", default: "Welcome back, %@!", .string(name)),
                                font: Font(size: 16, weight: .semibold), size: GridSize(width: 8, height: 1))),
                        .text(
                            ToastText(
                                LocalizedText("welcomeToast.subtitle", default: "New answers are waiting for you."),
                                font: Font(size: 13), color: "#FFFFFFCC", size: GridSize(width: 8, height: 1))),
                    ]),
                    .image(.asset("hand.wave.fill", tint: "#FFCC00"), size: GridSize(width: 2, height: 2)),
                ]),
                appearance: ToastAppearance(position: .top, offset: 12, size: .relative(xRatio: 0.92, yRatio: 0.1)),
                animation: ToastAnimation(
                    transition: .automatic, duration: 3.5,
                    show: [
                        AnimationStep(
                            duration: 0.25, curve: .easeOut,
                            from: AnimationState(alpha: 0, scale: 0.8, translation: Offset(y: -40)),
                            to: AnimationState(alpha: 1, scale: 1.05)),
                        AnimationStep(duration: 0.15, curve: .spring, from: AnimationState(scale: 1.05), to: AnimationState()),
                    ],
                    hide: [
                        AnimationStep(
                            duration: 0.3, curve: .easeIn, from: AnimationState(),
                            to: AnimationState(alpha: 0, translation: Offset(y: -40)))
                    ]))
        default: nil
        }
    }
}
