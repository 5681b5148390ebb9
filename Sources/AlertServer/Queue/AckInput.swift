import AlertQueue
import AlertSpec
import Foundation

/// The `input` of an ack: what the user typed in the alert's input field, checked against that
/// field before it is kept with the item. A secure field's value is refused: it must never
/// reach alertd, which keeps and shows what it is given (the app sends it to its own backend).
enum AckInput {
    /// The most characters kept, the model giving no length of its own to a field.
    static let maxLength = 1_000

    /// 422 at `/input` unless `input` fits the input field of `spec`: the alert has one, it is not
    /// secure, `input` is at most `maxLength` characters and looks like what its keyboard types.
    /// The empty string (nothing typed) fits every field.
    static func check(_ input: String, against spec: AlertSpec) throws {
        guard case .alert(let dialog) = spec.body, let field = dialog.input else {
            throw problem("no-input-field", "This alert has no input field, so its ack takes no input.")
        }
        guard !field.secure else {
            throw problem(
                "secure-input",
                "A secure field's value never reaches alertd; send it to your own backend, and acknowledge without input.")
        }
        // Counted in Unicode code points, as JSON Schema's maxLength counts (openapi.yaml).
        let length = input.unicodeScalars.count
        guard length <= maxLength else {
            throw problem("too-long", "The input has \(length) characters; at most \(maxLength) are kept.")
        }
        guard !input.isEmpty else { return }
        if input.unicodeScalars.contains(where: { $0.properties.generalCategory == .control && $0 != "\n" && $0 != "\t" }) {
            throw problem("invalid-input", "The input holds a control character.")
        }
        if let expected = mismatch(input, keyboard: field.keyboard) {
            throw problem("invalid-input", "The field takes \(expected) (its keyboard is \(field.keyboard.rawValue)).")
        }
    }

    /// What the keyboard types, when `input` is not such; nil when it is.
    static func mismatch(_ input: String, keyboard: AlertInput.Keyboard) -> String? {
        let scalars = input.unicodeScalars
        func isDigit(_ scalar: Unicode.Scalar) -> Bool { ("0"..."9").contains(scalar) }
        switch keyboard {
        case .default:
            return nil
        case .number:
            return scalars.allSatisfy(isDigit) ? nil : "digits only"
        case .phone:
            let allowed = scalars.allSatisfy { isDigit($0) || " +-().".unicodeScalars.contains($0) }
            return allowed && scalars.contains(where: isDigit) ? nil : "a phone number: digits, spaces and + - ( ) ."
        case .email:
            return looksLikeEmail(input) ? nil : "an email address, name@example.com"
        case .url:
            return looksLikeURL(input) ? nil : "a URL with a scheme and a host, https://example.com"
        }
    }

    /// One `@` between a local part and a domain with a dot inside it; no blanks.
    private static func looksLikeEmail(_ input: String) -> Bool {
        let parts = input.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, !input.contains(where: \.isWhitespace) else { return false }
        let domain = parts[1]
        guard let dot = domain.firstIndex(of: "."), dot != domain.startIndex, domain.last != "." else { return false }
        return true
    }

    /// An absolute URL with a scheme and a host; no blanks.
    private static func looksLikeURL(_ input: String) -> Bool {
        guard !input.contains(where: \.isWhitespace), let components = URLComponents(string: input) else { return false }
        return !(components.scheme ?? "").isEmpty && !(components.host ?? "").isEmpty
    }

    private static func problem(_ code: String, _ message: String) -> APIError {
        APIError.invalidRequest([SpecIssue(pointer: "/input", code: code, message: message)])
    }
}
