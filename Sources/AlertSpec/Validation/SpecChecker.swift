import Foundation

/// Collects issues while the validator walks a spec; one check per kind of value. Pointers
/// are made only for a value that breaks a rule (a valid spec, the rule, builds none).
struct SpecChecker {
    var errors: [SpecIssue] = []
    var warnings: [SpecIssue] = []

    mutating func error(_ pointer: String, _ code: String, _ message: String) {
        errors.append(SpecIssue(pointer: pointer, code: code, message: message))
    }

    mutating func warn(_ pointer: String, _ code: String, _ message: String) {
        warnings.append(SpecIssue(pointer: pointer, code: code, message: message))
    }

    /// `#RRGGBB` or `#RRGGBBAA`.
    mutating func color(_ pointer: @autoclosure () -> String, _ value: String?) {
        guard var value else { return }
        // A `#` byte then hex digits: a mark combining with the `#` is no hex digit either. Over
        // the bytes in place: walking the `utf8` view cost 600 instructions a colour.
        let valid = value.withUTF8 { bytes in
            (bytes.count == 7 || bytes.count == 9) && bytes[0] == UInt8(ascii: "#")
                && bytes.dropFirst().allSatisfy { ($0 >= 48 && $0 <= 57) || ($0 >= 65 && $0 <= 70) || ($0 >= 97 && $0 <= 102) }
        }
        if !valid { error(pointer(), "invalid-color", "\"\(value)\" is not a colour; use #RRGGBB or #RRGGBBAA.") }
    }

    /// A finite number within `range`.
    mutating func number(_ pointer: @autoclosure () -> String, _ value: Double?, _ range: ClosedRange<Double>) {
        guard let value else { return }
        if !value.isFinite || !range.contains(value) {
            error(pointer(), "out-of-range", "\(value) is outside \(range.lowerBound.clean)…\(range.upperBound.clean).")
        }
    }

    /// A ratio: 0 < r ≤ 1.
    mutating func ratio(_ pointer: @autoclosure () -> String, _ value: Double) {
        if !value.isFinite || value <= 0 || value > 1 { error(pointer(), "out-of-range", "\(value) must be more than 0 and at most 1.") }
    }

    /// Cells of a toast's grid: 0 < n ≤ 12, fractions allowed.
    mutating func cells(_ pointer: @autoclosure () -> String, _ value: Double) {
        if !value.isFinite || value <= 0 || value > 12 {
            error(pointer(), "out-of-range", "\(value.clean) cells: a grid size must be more than 0 and at most 12.")
        }
    }

    mutating func integer(_ pointer: @autoclosure () -> String, _ value: Int, _ range: ClosedRange<Int>) {
        if !range.contains(value) { error(pointer(), "out-of-range", "\(value) is outside \(range.lowerBound)…\(range.upperBound).") }
    }

    /// Text no longer than `limit` characters; optionally required to be non-empty.
    mutating func text(_ pointer: @autoclosure () -> String, _ value: String?, limit: Int, required: Bool = false) {
        guard let value, !value.isEmpty else {
            if required { error(pointer(), "empty-text", "This text must not be empty.") }
            return
        }
        // No more characters than UTF-8 bytes: only a long text is counted character by character.
        if value.utf8.count > limit, value.count > limit {
            error(pointer(), "text-too-long", "This text has \(value.count) characters; at most \(limit) are allowed.")
        }
    }

    mutating func image(_ pointer: @autoclosure () -> String, _ image: AlertImage?) {
        guard let image else { return }
        switch (image.asset, image.url) {
        case (let asset?, nil): text(pointer() + "/asset", asset, limit: SpecLimits.name, required: true)
        case (nil, let url?): self.url(pointer() + "/url", url)
        default: error(pointer(), "invalid-image", "An image needs exactly one of asset and url.")
        }
        color(pointer() + "/tint", image.tint)
    }

    mutating func font(_ pointer: @autoclosure () -> String, _ font: Font) {
        number(pointer() + "/size", font.size, 1...200)
        text(pointer() + "/family", font.family, limit: SpecLimits.name)
    }

    mutating func textStyle(_ pointer: @autoclosure () -> String, _ style: TextStyle) {
        font(pointer() + "/font", style.font)
        color(pointer() + "/color", style.color)
    }

    mutating func offset(_ pointer: @autoclosure () -> String, _ offset: Offset) {
        number(pointer() + "/x", offset.x, -2000...2000)
        number(pointer() + "/y", offset.y, -2000...2000)
    }
}

extension Double {
    fileprivate var clean: String { self == rounded() ? String(Int(self)) : String(self) }
}
