import AlertSpec
import Testing

@testable import AlertCatalogs

/// A catalog whose samples break the rules in three ways at once: a duplicate sample, a toast
/// without its content, a list parameter.
private enum BrokenAlert: AlertTarget {
    case fine
    case toastKind
    case listParameter(items: [String])

    var title: LocalizedText? { LocalizedText("t", default: "Title") }
    var actions: [AlertAction] { [.ok()] }
    var kind: AlertKind { self == .toastKind ? .toast : .alert }
    static var samples: [BrokenAlert] { [.fine, .fine, .toastKind, .listParameter(items: ["a"])] }

    static func == (lhs: Self, rhs: Self) -> Bool {
        switch (lhs, rhs) {
        case (.fine, .fine), (.toastKind, .toastKind): true
        default: false
        }
    }
}

@Suite("Checking an enum catalog at start-up")
struct EnumCatalogTests {
    @Test("a broken catalog is refused with every problem listed")
    func brokenCatalogIsRefused() {
        let error = #expect(throws: CatalogError.self) {
            try EnumCatalog(name: "broken", BrokenAlert.self, localizer: SourceLocalizer())
        }
        let problems = error?.problems ?? []
        #expect(problems.count == 3)
        #expect(problems.contains { $0.contains("more than one sample") })
        #expect(problems.contains { $0.contains("toast") })
        #expect(problems.contains { $0.contains("items") })
        #expect(error?.isNotFound == false)
    }

    @Test("two catalogs with one name are refused")
    func duplicateNames() throws {
        let app = try EnumCatalog(name: "app", AppAlert.self, localizer: SourceLocalizer())
        #expect(throws: CatalogError.self) { try CatalogRegistry([app, app]) }
    }
}
