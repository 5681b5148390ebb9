/// A format string parsed once: its literal runs and its placeholders, each with the argument
/// position it takes. Filling it again and again reads no Characters: a localizer parses each
/// translation when it is built and only fills it per render.
///
/// ```swift
/// let pattern = FormatPattern("%@ has %'lld new")
/// pattern.format([.string("Ana"), .integer(1200)], NumberSymbols(locale: "fr"))   // "Ana has 1 200 new"
/// ```
struct FormatPattern: Sendable, Equatable {
    /// A run of text copied as it is (`%%` already read as `%`), or a placeholder.
    enum Segment: Sendable, Equatable {
        case text(String)
        /// The argument at `position` (0-based), written as `placeholder` says.
        case argument(position: Int, Placeholder)
    }

    let segments: [Segment]
    /// The UTF-8 length of the text runs: what every filled string holds besides its arguments.
    private let textLength: Int

    /// Parses `format` as `TextFormatter.format` reads it: Character by Character, so a `%` that
    /// a combining mark joins is text, not a placeholder.
    init(_ format: String) {
        var segments: [Segment] = []
        var pending = ""  // text not yet added, so that runs split by `%%` become one
        var next = 0
        var index = format.startIndex
        var text = index  // the start of the text not yet copied: copied in runs, not by Character
        while index < format.endIndex {
            guard format[index] == "%", let (placeholder, end) = Placeholder.parse(format, at: format.index(after: index)) else {
                index = format.index(after: index)
                continue
            }
            pending += format[text..<index]
            index = end
            text = index
            if placeholder.conversion == "%" {
                pending.append("%")
                continue
            }
            let position = placeholder.position ?? next
            next = position + 1
            if !pending.isEmpty { segments.append(.text(pending)) }
            pending = ""
            segments.append(.argument(position: position, placeholder))
        }
        pending += format[text...]
        if !pending.isEmpty { segments.append(.text(pending)) }
        self.segments = segments
        self.textLength = segments.reduce(0) {
            if case .text(let run) = $1 { $0 + run.utf8.count } else { $0 }
        }
    }

    /// The placeholders in order: argument positions and conversions (`%%` is not one).
    var placeholders: [(position: Int, conversion: Character)] {
        segments.compactMap {
            if case .argument(let position, let placeholder) = $0 { (position, placeholder.conversion) } else { nil }
        }
    }

    /// The text with `arguments` substituted, numbers written with `symbols`. A placeholder
    /// past the arguments becomes empty.
    func format(_ arguments: [FormatArgument], _ symbols: NumberSymbols) -> String {
        if segments.count == 1, case .text(let run) = segments[0] { return run }
        var output = ""
        output.reserveCapacity(textLength + 16 * arguments.count)
        for segment in segments {
            switch segment {
            case .text(let run): output += run
            case .argument(let position, let placeholder):
                if position < arguments.count { output += TextFormatter.render(arguments[position], placeholder, symbols) }
            }
        }
        return output
    }
}

/// One `%…` placeholder: `[n$]['][.p][l|ll]c`.
struct Placeholder: Sendable, Equatable {
    /// The 0-based argument it names (`%2$@`), or nil: the one after the previous placeholder's.
    var position: Int?
    /// The `'` flag: group digits the locale's way.
    var grouping = false
    var precision: Int?
    var conversion: Character

    init(position: Int? = nil, grouping: Bool = false, precision: Int? = nil, conversion: Character) {
        self.position = position
        self.grouping = grouping
        self.precision = precision
        self.conversion = conversion
    }

    /// Parses `[n$]['][.p][l|ll]c` after a `%`, and where it ends; nil when it is not a placeholder.
    static func parse(_ text: String, at start: String.Index) -> (Placeholder, end: String.Index)? {
        var index = start
        func peek() -> Character? { index < text.endIndex ? text[index] : nil }
        func digits() -> Int? {
            var value: Int?
            while let character = peek(), let digit = character.wholeNumberValue, character.isASCII {
                value = (value ?? 0) * 10 + digit
                if value! > 99 { return nil }
                index = text.index(after: index)
            }
            return value
        }
        var position: Int?
        let save = index
        if let number = digits(), peek() == "$", number >= 1 {
            position = number - 1
            index = text.index(after: index)
        } else {
            index = save
        }
        var grouping = false
        if peek() == "'" {
            grouping = true
            index = text.index(after: index)
        }
        var precision: Int?
        if peek() == "." {
            index = text.index(after: index)
            precision = digits() ?? 0
        }
        while peek() == "l" { index = text.index(after: index) }
        guard let conversion = peek(), "@difu%".contains(conversion) else { return nil }
        return (Placeholder(position: position, grouping: grouping, precision: precision, conversion: conversion), text.index(after: index))
    }
}
