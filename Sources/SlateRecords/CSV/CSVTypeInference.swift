import Foundation
import SlateConcurrency
import SlateCore
import SlateQuery

/// What a field's text is, for choosing how to bind it and for inferring column types.
///
/// The rules are strict so that a number is only ever stored as a number when that loses nothing
/// of the text (see <doc:CSV#Type-inference>):
///
/// - **Integer**: `-?(0|[1-9][0-9]*)` whose value fits in `Int64`. So `0`, `42` and
///   `-9223372036854775808` are integers, while `007`, `00`, `-0`, `+1`, ` 1`, `1 `, `1_000`,
///   `0x10` and `9223372036854775808` are text: stored as numbers, they would read back
///   differently.
/// - **Real**: `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?` with a fraction or an exponent or
///   both, such as `1.5`, `-0.25`, `1e5`, `2.5E-3`, `1e999` (infinity). `.5`, `5.`, `01.5`,
///   `nan`, `inf` and `1,5` are text. The value is the correctly rounded `Double`.
/// - **Text**: anything else, including the empty field.
enum CSVValue {
    case integer(Int64)
    case real(Double)
    case text
}

enum CSVNumberParser {
    private static let zero = UInt8(ascii: "0")
    private static let minus = UInt8(ascii: "-")

    /// Classifies the `count` bytes at `bytes`, in one pass.
    static func classify(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CSVValue {
        guard count > 0 else { return .text }
        var index = 0
        let negative = bytes[0] == minus
        if negative { index = 1 }
        guard index < count else { return .text }
        let firstDigit = bytes[index] &- zero
        guard firstDigit < 10 else { return .text }
        index += 1
        // The integer part's magnitude, checked for overflow.
        var magnitude = UInt64(firstDigit)
        var overflow = false
        if firstDigit == 0 {
            // "0" alone, "0.x" or "0e…": a leading zero followed by a digit is text.
            if index < count, bytes[index] &- zero < 10 { return .text }
        } else {
            while index < count {
                let digit = bytes[index] &- zero
                guard digit < 10 else { break }
                if !overflow {
                    let (times, o1) = magnitude.multipliedReportingOverflow(by: 10)
                    let (next, o2) = times.addingReportingOverflow(UInt64(digit))
                    if o1 || o2 { overflow = true } else { magnitude = next }
                }
                index += 1
            }
        }
        if index == count {
            // An integer: within Int64, and not "-0", which reads back as "0".
            if overflow { return .text }
            if negative {
                guard magnitude != 0, magnitude <= UInt64(Int64.max) + 1 else { return .text }
                return .integer(Int64(bitPattern: 0 &- magnitude))
            }
            return magnitude <= UInt64(Int64.max) ? .integer(Int64(magnitude)) : .text
        }
        let integerDigits = firstDigit == 0 ? 0 : index - (negative ? 1 : 0)
        return classifyReal(
            bytes, count, negative: negative, index: index, mantissa: magnitude,
            significantDigits: overflow ? 1_000 : integerDigits)
    }

    /// The rest of a real from `index`: `(\.[0-9]+)?([eE][+-]?[0-9]+)?`, at least one of them.
    ///
    /// The value is exact when the significant digits fit in 15 (below 2^53) and the power of ten
    /// is at most 10^22 (exact as a `Double`): then one IEEE multiplication or division rounds
    /// correctly. Other reals go through the standard library's correctly rounded parser.
    private static func classifyReal(
        _ bytes: UnsafePointer<UInt8>, _ count: Int, negative: Bool, index start: Int, mantissa integerPart: UInt64,
        significantDigits integerDigits: Int
    ) -> CSVValue {
        var index = start
        var mantissa = integerPart
        var significant = integerDigits
        var exact = significant <= 15
        var scale = 0  // digits after the point, while exact
        if bytes[index] == UInt8(ascii: ".") {
            index += 1
            let fractionStart = index
            while index < count {
                let digit = bytes[index] &- zero
                guard digit < 10 else { break }
                if mantissa != 0 || digit != 0 { significant += 1 }
                if significant > 15 { exact = false }
                if exact {
                    mantissa = mantissa * 10 + UInt64(digit)
                    scale += 1
                }
                index += 1
            }
            guard index > fractionStart else { return .text }
        }
        var exponent = 0
        if index < count, bytes[index] | 0x20 == UInt8(ascii: "e") {
            index += 1
            var exponentIsNegative = false
            if index < count, bytes[index] == UInt8(ascii: "+") {
                index += 1
            } else if index < count, bytes[index] == minus {
                exponentIsNegative = true
                index += 1
            }
            let exponentStart = index
            while index < count {
                let digit = bytes[index] &- zero
                guard digit < 10 else { break }
                if exponent < 100_000 { exponent = exponent * 10 + Int(digit) }
                index += 1
            }
            guard index > exponentStart else { return .text }
            if exponentIsNegative { exponent = -exponent }
        }
        guard index == count else { return .text }
        if exact {
            let power = exponent - scale
            if power >= -22, power <= 22 {
                var value = Double(mantissa)  // exact: below 10^15 < 2^53
                if power < 0 { value /= exactPowersOfTen[-power] } else { value *= exactPowersOfTen[power] }
                return .real(negative ? -value : value)
            }
        }
        guard let value = Double(String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self))
        else {
            return .text
        }
        return .real(value)
    }

    /// 10^0 … 10^22, all exactly representable as `Double`.
    private static let exactPowersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
        1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
    ]

    /// Whether SQLite's numeric affinity might turn this text into a number: after leading
    /// whitespace, it starts with a digit, a sign or a point. Text that does not (`N/A`, `abc`,
    /// the empty string) is always stored as text.
    static func mightBeConvertedBySQLite(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> Bool {
        var index = 0
        while index < count, bytes[index] == 0x20 || (bytes[index] >= 0x09 && bytes[index] <= 0x0D) { index += 1 }
        guard index < count else { return false }
        let byte = bytes[index]
        return byte &- zero < 10 || byte == UInt8(ascii: "+") || byte == minus || byte == UInt8(ascii: ".")
    }
}

/// The type a table created by an import gives a column, from the values of the sample.
enum CSVInferredType: String, Sendable {
    case integer = "INTEGER"
    case real = "REAL"
    case text = "TEXT"
}

/// What the sample showed about one column.
struct CSVColumnStatistics {
    private var sawInteger = false
    private var sawLargeInteger = false  // beyond ±2^53: not exact as a REAL
    private var sawReal = false
    private var sawText = false

    /// Records one non-empty value.
    mutating func observe(_ bytes: UnsafePointer<UInt8>, _ count: Int) {
        guard !sawText else { return }
        switch CSVNumberParser.classify(bytes, count) {
        case .integer(let value):
            sawInteger = true
            if value.magnitude > 1 << 53 { sawLargeInteger = true }
        case .real:
            sawReal = true
        case .text:
            sawText = true
        }
    }

    /// `INTEGER` when every value was an integer, `REAL` when they were reals, or integers and
    /// reals with every integer exact as a `Double`, `TEXT` otherwise (and for a column without
    /// values).
    var inferredType: CSVInferredType {
        if sawText || (!sawInteger && !sawReal) { return .text }
        if sawReal { return sawLargeInteger ? .text : .real }
        return .integer
    }
}

/// Column names for a table an import creates.
enum CSVColumnNaming {
    /// The longest name kept, in characters.
    static let maximumLength = 128

    /// Safe, unique names from the header fields: whitespace trimmed, control characters replaced
    /// by `_`, cut to 128 characters; an empty name becomes `column_N` (N its 1-based position);
    /// a name equal to an earlier one, ignoring ASCII case as SQLite does, gets the first free
    /// suffix `_2`, `_3`…. Names are always quoted in SQL, so any other character is fine.
    static func safeNames(from headers: [String]) -> [String] {
        var used: Set<String> = []
        var names: [String] = []
        for (index, header) in headers.enumerated() {
            var name = String(
                String.UnicodeScalarView(
                    header.trimmingCharacters(in: .whitespacesAndNewlines).unicodeScalars.map { scalar in
                        scalar.properties.generalCategory == .control ? "_" : scalar
                    }))
            if name.count > maximumLength { name = String(name.prefix(maximumLength)) }
            if name.isEmpty { name = "column_\(index + 1)" }
            var candidate = name
            var suffix = 2
            while used.contains(asciiLowercased(candidate)) {
                candidate = "\(name)_\(suffix)"
                suffix += 1
            }
            used.insert(asciiLowercased(candidate))
            names.append(candidate)
        }
        return names
    }

    /// `column_1`, `column_2`… for a file without a header row.
    static func positionalNames(count: Int) -> [String] {
        (1...max(1, count)).map { "column_\($0)" }
    }

    /// The name with ASCII letters lowercased: how SQLite compares identifiers.
    static func asciiLowercased(_ name: String) -> String {
        String(decoding: name.utf8.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }, as: UTF8.self)
    }
}
