/// Builds Swift source text line by line into one growing string: appending is amortized constant
/// time, so generating thousands of tables stays linear.
public struct SourceWriter: Sendable {
    /// The text written so far.
    public private(set) var text = ""
    private var indentation = ""
    /// Whether DocC comments are written.
    public let documents: Bool

    /// A writer; `documents` turns `///` comments on.
    public init(documents: Bool, capacity: Int = 0) {
        self.documents = documents
        text.reserveCapacity(capacity)
    }

    /// Appends one line at the current indentation; an empty string appends an empty line.
    public mutating func line(_ content: String = "") {
        // Bytes, not Characters: walking grapheme clusters made this the generator's hot spot.
        if content.utf8.contains(0x0A) {
            for part in content.split(separator: "\n", omittingEmptySubsequences: false) { line(String(part)) }
            return
        }
        if !content.isEmpty {
            text += indentation
            text += content
        }
        text += "\n"
    }

    /// Appends `///` comment lines, when documentation is on. Multi-line strings are split at
    /// every kind of line break (`\r` and `\r\n` too), so no text from a schema can end the comment.
    public mutating func doc(_ lines: String...) {
        guard documents else { return }
        for line in lines {
            if !Self.mayHoldLineBreak(line) {
                self.line(line.isEmpty ? "///" : "/// " + line)
                continue
            }
            for part in line.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
                self.line(part.isEmpty ? "///" : "/// " + part)
            }
        }
    }

    /// Whether `text` may hold a line break: a byte from `\n` to `\r`, or any non-ASCII byte
    /// (U+0085, U+2028 and U+2029 break lines too). Cheap, so plain ASCII lines skip splitting.
    static func mayHoldLineBreak(_ text: String) -> Bool {
        text.utf8.contains { $0 >= 0x0A && $0 <= 0x0D || $0 >= 0x80 }
    }

    /// Appends `header {`, the body one level deeper, and `}`.
    public mutating func block(_ header: String, _ body: (inout SourceWriter) -> Void) {
        line(header + " {")
        indent()
        body(&self)
        outdent()
        line("}")
    }

    /// Writes later lines one level deeper.
    public mutating func indent() { indentation += "    " }

    /// Writes later lines one level shallower.
    public mutating func outdent() { indentation = String(indentation.dropLast(4)) }
}

/// Swift literals for generated code.
public enum SwiftLiteral {
    /// `value` as a Swift string literal, with quotes, backslashes and control characters escaped.
    public static func string(_ value: String) -> String {
        var result = "\""
        result.reserveCapacity(value.utf8.count + 2)
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            default:
                if needsEscape(scalar) {
                    result += "\\u{" + String(scalar.value, radix: 16) + "}"
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result + "\""
    }

    /// SQL text as a Swift literal, preferring a raw string (`#"SELECT "a" FROM "t""#`) so quoted
    /// identifiers stay readable; falls back to an escaped literal for control characters.
    public static func sql(_ value: String) -> String {
        if value.unicodeScalars.contains(where: needsEscape) { return string(value) }
        if !value.contains("\"") && !value.contains("\\") { return "\"" + value + "\"" }
        var hashes = "#"
        while value.contains("\"" + hashes) || value.contains("\\" + hashes) { hashes += "#" }
        return hashes + "\"" + value + "\"" + hashes
    }

    /// Control characters, and the Unicode line and paragraph separators, which would make generated
    /// source hard to read (or, in a comment, end it): written as `\u{…}` escapes.
    public static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || scalar.value == 0x7F || scalar.value == 0x85 || scalar.value == 0x2028
            || scalar.value == 0x2029
    }

    /// Text for a DocC comment: backticks in names would end code spans, so they are replaced.
    public static func codeSpan(_ value: String) -> String {
        "`" + String(value.map { $0 == "`" ? "'" : $0.isNewline ? " " : $0 }) + "`"
    }
}
