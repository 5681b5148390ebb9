extension SpecValidator {
    func check(_ toast: AlertSpec.Toast, _ checker: inout SpecChecker) {
        if let issue = SpecLimits.elementsIssue(Self.elements(of: toast.content), at: "/content") { checker.errors.append(issue) }
        check(toast.content, at: "/content", depth: 1, &checker)
        let appearance = toast.appearance
        checker.number("/appearance/offset", appearance.offset, -1000...1000)
        switch appearance.size {
        case .absolute(let width, let height):
            checker.number("/appearance/size/width", width, 1...2000)
            checker.number("/appearance/size/height", height, 1...2000)
        case .relative(let x, let y):
            checker.ratio("/appearance/size/xRatio", x)
            checker.ratio("/appearance/size/yRatio", y)
        }
        checker.color("/appearance/style/backgroundColor", appearance.style.backgroundColor)
        checker.number("/appearance/style/cornerRadius", appearance.style.cornerRadius, 0...100)
        let animation = toast.animation
        checker.number("/animation/duration", animation.duration, 0...60)
        check(animation.show, at: "/animation/show", &checker)
        check(animation.hide, at: "/animation/hide", &checker)
    }

    private func check(_ node: ToastNode<String>, at pointer: String, depth: Int, _ checker: inout SpecChecker) {
        if depth > SpecLimits.toastDepth {
            return checker.error(pointer, "too-deep", "A toast's layout nests at most \(SpecLimits.toastDepth) levels.")
        }
        switch node {
        case .text(let text):
            checker.text(pointer + "/text", text.text, limit: SpecLimits.text, required: true)
            checker.font(pointer + "/font", text.font)
            checker.color(pointer + "/color", text.color)
            checker.color(pointer + "/backgroundColor", text.backgroundColor)
            check(text.size, at: pointer + "/size", &checker)
        case .image(let image, let size):
            checker.image(pointer + "/image", image)
            check(size, at: pointer + "/size", &checker)
        case .spacer(let size):
            check(size, at: pointer + "/size", &checker)
        case .beside(let items), .stacked(let items):
            if items.isEmpty { checker.error(pointer + "/items", "empty-group", "A row or column needs at least one element.") }
            for (index, item) in items.enumerated() {
                check(item, at: "\(pointer)/items/\(index)", depth: depth + 1, &checker)
            }
        }
    }

    /// The elements of a layout: this one and those it holds, at every level.
    private static func elements(of node: ToastNode<String>) -> Int {
        switch node {
        case .text, .image, .spacer: 1
        case .beside(let items), .stacked(let items): items.reduce(1) { $0 + elements(of: $1) }
        }
    }

    private func check(_ size: GridSize, at pointer: String, _ checker: inout SpecChecker) {
        checker.cells(pointer + "/width", size.width)
        checker.cells(pointer + "/height", size.height)
    }

    private func check(_ steps: [AnimationStep], at pointer: String, _ checker: inout SpecChecker) {
        if let issue = SpecLimits.stepsIssue(steps.count, at: pointer) { checker.errors.append(issue) }
        for (index, step) in steps.enumerated() {
            let at = "\(pointer)/\(index)"
            checker.number(at + "/duration", step.duration, 0...10)
            checker.number(at + "/delay", step.delay, 0...10)
            for (name, state) in [("from", step.from), ("to", step.to)] {
                checker.number("\(at)/\(name)/alpha", state.alpha, 0...1)
                checker.number("\(at)/\(name)/scale", state.scale, 0...10)
                checker.number("\(at)/\(name)/rotation", state.rotation, -360...360)
                checker.offset("\(at)/\(name)/translation", state.translation)
            }
        }
    }
}
