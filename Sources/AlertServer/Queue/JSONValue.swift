import AlertSpec
import Foundation

/// Typed reads of values `JSONSerialization` parsed. It gives every JSON number and boolean as
/// an `NSNumber`, and a bridged cast alone cannot tell `true` from `1` (`1 as? Bool` succeeds),
/// so booleans are told apart by their type encoding (`c`), as Foundation writes them.
enum JSONValue {
    static func isBoolean(_ value: Any) -> Bool {
        guard let number = value as? NSNumber else { return false }
        return String(cString: number.objCType) == "c"
    }

    /// A JSON integer (or a number with no fraction, `2.0`), never a boolean.
    static func integer(_ value: Any) -> Int? {
        guard let number = value as? NSNumber, !isBoolean(value) else { return nil }
        switch String(cString: number.objCType) {
        case "d", "f": return Int(exactly: number.doubleValue)
        case "Q": return Int(exactly: number.uint64Value)
        default: return number.intValue
        }
    }

    /// A JSON number, never a boolean.
    static func number(_ value: Any) -> Double? {
        guard let number = value as? NSNumber, !isBoolean(value) else { return nil }
        return number.doubleValue
    }

    /// A parameter value: a string, a boolean, an integer (also `2.0`), else a number; nil for
    /// null, arrays and objects. The same cases `ParameterValue`'s decoder gives.
    static func parameter(_ value: Any) -> ParameterValue? {
        if let string = value as? String { return .string(string) }
        guard value is NSNumber else { return nil }
        if isBoolean(value) { return .boolean((value as? Bool) ?? false) }
        if let integer = integer(value) { return .integer(integer) }
        return number(value).map(ParameterValue.number)
    }
}
