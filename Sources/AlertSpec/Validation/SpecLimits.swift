/// Every bound a spec is held to, in one place. The validator holds every spec to them, built
/// in code or read from JSON; `SpecReader` also refuses a spec past the size and count limits
/// before it decodes it, so a hostile draft costs no more than a valid one
/// (`SpecLimits.countIssues(in:)`). docs/spec-format.md and openapi.yaml state the same numbers.
///
/// ```swift
/// SpecLimits.actions          // 16 buttons in an alert
/// SpecLimits.countIssues(in: try JSON(parsing: bytes))   // [] or [/actions: at most 16 …]
/// ```
public enum SpecLimits {
    // MARK: Text, in characters (URLs in bytes)

    /// A title: of an alert, a sheet, a card page; a HUD's text; an input's placeholder.
    public static let title = 200
    /// A message: of an alert or a sheet; a card page's description.
    public static let message = 2000
    /// A button's label, a card button's title, an event name.
    public static let label = 100
    /// A toast's text element.
    public static let text = 500
    /// A button, option or card page id (and `start`, `next`).
    public static let identifier = 64
    /// An image asset name, a font family.
    public static let name = 128
    /// A `next` action's alert, `catalog/type`.
    public static let alertID = 129
    public static let url = 2048

    // MARK: Lists

    /// Buttons of an alert.
    public static let actions = 16
    /// Options of a sheet.
    public static let options = 50
    /// Pages of a card flow.
    public static let pages = 20
    /// Elements of a toast's layout, containers and leaves together.
    public static let toastElements = 200
    /// Levels of a toast's layout.
    public static let toastDepth = 8
    /// Steps of a toast's show or hide animation.
    public static let animationSteps = 10

    // MARK: Size

    /// Bytes of a spec's JSON: a `POST /v1/specs/validate` body and an enqueue's `spec` member
    /// as sent; a catalog file's spec as compact JSON. Past it: 413 (`spec-too-large`).
    public static let encodedSpec = 65_536

    /// URL schemes never allowed, whatever the app registers.
    public static let forbiddenSchemes: Set<String> = ["javascript", "file", "data", "vbscript", "about", "blob"]
}

extension SpecLimits {
    /// The issue of a spec whose JSON is `size` bytes, past ``encodedSpec``; nil within it.
    public static func sizeIssue(_ size: Int, at pointer: String = "") -> SpecIssue? {
        guard size > encodedSpec else { return nil }
        return SpecIssue(
            pointer: pointer, code: "spec-too-large",
            message: "The spec is \(size) bytes of JSON; at most \(encodedSpec) are allowed (SpecLimits.encodedSpec).")
    }

    /// The issue of a list of `count` things where at most `limit` are allowed; nil within it.
    static func countIssue(_ count: Int, _ limit: Int, _ what: String, code: String, at pointer: @autoclosure () -> String) -> SpecIssue? {
        guard count > limit else { return nil }
        return SpecIssue(pointer: pointer(), code: code, message: "At most \(limit) \(what) are allowed; this has \(count).")
    }
}
