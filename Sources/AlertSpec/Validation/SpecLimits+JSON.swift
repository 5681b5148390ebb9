extension SpecLimits {
    /// The lists of a draft longer than their limit, found on the parsed JSON before anything is
    /// decoded: an alert's `actions`, a sheet's `options`, a card's `pages`, a toast's layout
    /// elements and animation steps. The same codes and messages as the validator's, which holds
    /// specs built in code to the same limits.
    public static func countIssues(in draft: JSON) -> [SpecIssue] {
        guard case .object(let members) = draft else { return [] }
        var issues: [SpecIssue] = []
        func check(_ name: String, _ limit: Int, _ what: String, _ code: String) {
            guard let count = members[name]?.array?.count else { return }
            if let issue = countIssue(count, limit, what, code: code, at: "/" + name) { issues.append(issue) }
        }
        check("actions", actions, "buttons", "too-many-actions")
        check("options", options, "options", "too-many-options")
        check("pages", pages, "pages", "too-many-pages")
        if let content = members["content"], let issue = elementsIssue(layoutElements(content), at: "/content") {
            issues.append(issue)
        }
        for phase in ["show", "hide"] {
            guard let count = members["animation"]?[phase]?.array?.count else { continue }
            if let issue = stepsIssue(count, at: "/animation/" + phase) { issues.append(issue) }
        }
        return issues
    }

    static func elementsIssue(_ count: Int, at pointer: @autoclosure () -> String) -> SpecIssue? {
        countIssue(count, toastElements, "layout elements", code: "too-many-elements", at: pointer())
    }

    static func stepsIssue(_ count: Int, at pointer: @autoclosure () -> String) -> SpecIssue? {
        countIssue(count, animationSteps, "animation steps", code: "too-many-steps", at: pointer())
    }

    /// The elements of a toast layout written as JSON: this one and those in its `items`, at
    /// every level (the parser bounds the nesting, so the recursion is bounded too).
    private static func layoutElements(_ node: JSON) -> Int {
        guard let items = node["items"]?.array else { return 1 }
        return items.reduce(1) { $0 + layoutElements($1) }
    }
}
