extension SpecValidator {
    func check(_ card: AlertSpec.Card, _ checker: inout SpecChecker) {
        if card.pages.isEmpty { return checker.error("/pages", "no-page", "A card flow needs at least one page.") }
        if let issue = SpecLimits.countIssue(card.pages.count, SpecLimits.pages, "pages", code: "too-many-pages", at: "/pages") {
            checker.errors.append(issue)
        }
        checker.text("/start", card.start, limit: SpecLimits.identifier)
        var pages: [String: CardPage<String>] = [:]
        for (index, page) in card.pages.enumerated() {
            let at = "/pages/\(index)"
            checker.text(at + "/id", page.id, limit: SpecLimits.identifier, required: true)
            if !page.id.isEmpty, pages.updateValue(page, forKey: page.id) != nil {
                checker.error(at + "/id", "duplicate-page-id", "Another page already has the id \"\(page.id)\".")
            }
            if page.title.isEmpty {
                checker.error(at + "/title", "missing-title", "Every card page needs a title.")
            }
            checker.text(at + "/title", page.title, limit: SpecLimits.title)
            checker.text(at + "/description", page.description, limit: SpecLimits.message)
            checker.text(at + "/next", page.next, limit: SpecLimits.identifier)
            checker.image(at + "/image", page.image)
            for (name, button) in [("actionButton", page.actionButton), ("alternativeButton", page.alternativeButton)] {
                guard let button else { continue }
                checker.text("\(at)/\(name)/title", button.title, limit: SpecLimits.label, required: true)
                check(button.action, at: "\(at)/\(name)/action", &checker)
            }
        }
        if pages[card.start] == nil {
            checker.error("/start", "unknown-page", "There is no page \"\(card.start)\" to start with.")
        }
        for (index, page) in card.pages.enumerated() {
            if let next = page.next, pages[next] == nil {
                checker.error("/pages/\(index)/next", "unknown-page", "There is no page \"\(next)\".")
            }
        }
        // Follow the flow from the start; it must reach a page the user can leave.
        var visited = Set<String>()
        var current = pages[card.start]
        var canEnd = current == nil
        while let page = current, visited.insert(page.id).inserted {
            if page.dismissable || page.next == nil || pages[page.next!] == nil {
                canEnd = true
                break
            }
            current = pages[page.next!]
        }
        if !canEnd {
            checker.error("/start", "endless-flow", "The flow never ends: no page on it is dismissable or without a next page.")
        }
        let appearance = card.appearance
        checker.color("/appearance/tintColor", appearance.tintColor)
        checker.color("/appearance/actionButtonColor", appearance.actionButtonColor)
        checker.color("/appearance/actionButtonTitleColor", appearance.actionButtonTitleColor)
        checker.color("/appearance/alternativeButtonTitleColor", appearance.alternativeButtonTitleColor)
        checker.color("/appearance/titleColor", appearance.titleColor)
    }
}
