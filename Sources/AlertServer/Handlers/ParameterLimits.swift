/// Bounds on the alert parameters a client passes — query items of a render, `params` of an
/// enqueue — checked before any is decoded or rendered. Only the parameters an alert declares
/// are accepted anyway; these bound the work and the bytes stored before that check, and keep
/// error messages (which quote a bad value) short. Rendered text has its own limits
/// (`SpecLimits`: a title 200 characters, a message 2,000).
enum ParameterLimits {
    /// Parameters in one request.
    static let count = 32
    /// Bytes of one parameter name.
    static let nameLength = 64
    /// Bytes of one parameter value, as text.
    static let valueLength = 1024

    /// A sentence for the first limit `parameters` break, or nil when they keep them all.
    static func problem<Values: Collection>(_ parameters: Values) -> String?
    where Values.Element == (name: String, value: String) {
        if parameters.count > count { return "At most \(count) parameters are accepted." }
        for (name, value) in parameters {
            if name.utf8.count > nameLength { return "A parameter name has at most \(nameLength) bytes." }
            if value.utf8.count > valueLength {
                return "The parameter \"\(name)\" is longer than \(valueLength) bytes."
            }
        }
        return nil
    }
}
