import CSQLite
import Foundation

/// Reads back the values bound to a statement, for logs whose user asked to see them.
///
/// SQLite has no call that returns a bound value; `sqlite3_expanded_sql` writes them into the SQL
/// as literals. The statement's SQL and its expansion are the same text except where a parameter
/// stands, so walking both at once, skipping literals, quoted names and comments alike, finds each
/// parameter's literal, which is then read back as a value.
enum BoundValues {
    /// The values in the order the parameters appear in the SQL, or `nil` when SQLite could not
    /// expand the SQL (out of memory, or longer than the length limit) or the texts do not line up.
    static func read(_ statement: OpaquePointer) -> [SQLValue]? {
        guard sqlite3_bind_parameter_count(statement) > 0 else { return [] }
        guard let sql = sqlite3_sql(statement), let expanded = sqlite3_expanded_sql(statement) else { return nil }
        defer { sqlite3_free(expanded) }
        return values(
            original: Array(String(cString: sql).utf8), expanded: Array(String(cString: expanded).utf8))
    }

    static func values(original: [UInt8], expanded: [UInt8]) -> [SQLValue]? {
        var values: [SQLValue] = []
        var i = 0  // in `original`
        var j = 0  // in `expanded`
        while i < original.count {
            let byte = original[i]
            if let end = skippedEnd(original, at: i) {
                // A literal, quoted name or comment: the same bytes in both texts.
                let length = end - i
                guard j + length <= expanded.count, original[i..<end].elementsEqual(expanded[j..<(j + length)]) else {
                    return nil
                }
                i = end
                j += length
            } else if let end = parameterEnd(original, at: i) {
                guard let (value, next) = literal(expanded, at: j) else { return nil }
                values.append(value)
                i = end
                j = next
            } else {
                guard j < expanded.count, expanded[j] == byte else { return nil }
                i += 1
                j += 1
            }
        }
        return values
    }

    /// The end of the string literal, quoted name or comment that starts at `index`, if one does.
    private static func skippedEnd(_ text: [UInt8], at index: Int) -> Int? {
        let byte = text[index]
        switch byte {
        case UInt8(ascii: "'"), UInt8(ascii: "\""), UInt8(ascii: "`"):
            var k = index + 1
            while k < text.count {
                if text[k] == byte {
                    if k + 1 < text.count, text[k + 1] == byte {
                        k += 2  // a doubled quote
                        continue
                    }
                    return k + 1
                }
                k += 1
            }
            return text.count
        case UInt8(ascii: "["):
            return (text[index...].firstIndex(of: UInt8(ascii: "]")).map { $0 + 1 }) ?? text.count
        case UInt8(ascii: "-") where index + 1 < text.count && text[index + 1] == UInt8(ascii: "-"):
            return text[index...].firstIndex(of: 0x0A) ?? text.count
        case UInt8(ascii: "/") where index + 1 < text.count && text[index + 1] == UInt8(ascii: "*"):
            var k = index + 2
            while k + 1 < text.count {
                if text[k] == UInt8(ascii: "*"), text[k + 1] == UInt8(ascii: "/") { return k + 2 }
                k += 1
            }
            return text.count
        default:
            return nil
        }
    }

    /// The end of the parameter (`?`, `?NNN`, `:name`, `@name`, `$name`) that starts at `index`.
    private static func parameterEnd(_ text: [UInt8], at index: Int) -> Int? {
        let byte = text[index]
        if byte == UInt8(ascii: "?") {
            var k = index + 1
            while k < text.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(text[k]) { k += 1 }
            return k
        }
        guard [UInt8(ascii: ":"), UInt8(ascii: "@"), UInt8(ascii: "$")].contains(byte) else { return nil }
        var k = index + 1
        while k < text.count, isIdentifierByte(text[k]) { k += 1 }
        return k > index + 1 ? k : nil
    }

    private static func isIdentifierByte(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "_") || byte >= 0x80
    }

    /// The literal `sqlite3_expanded_sql` wrote at `index` (`NULL`, a number, `'text'` or
    /// `x'blob'`), and where it ends.
    private static func literal(_ text: [UInt8], at index: Int) -> (SQLValue, Int)? {
        guard index < text.count else { return nil }
        let rest = text[index...]
        if rest.starts(with: Array("NULL".utf8)) { return (.null, index + 4) }
        if text[index] == UInt8(ascii: "'") {
            guard let end = skippedEnd(text, at: index), end - index >= 2 else { return nil }
            let body = String(decoding: text[(index + 1)..<(end - 1)], as: UTF8.self)
            return (.text(body.replacingOccurrences(of: "''", with: "'")), end)
        }
        if text[index] == UInt8(ascii: "x"), index + 1 < text.count, text[index + 1] == UInt8(ascii: "'") {
            guard let end = skippedEnd(text, at: index + 1) else { return nil }
            let hex = Array(text[(index + 2)..<(end - 1)])
            guard hex.count % 2 == 0 else { return nil }
            var bytes: [UInt8] = []
            bytes.reserveCapacity(hex.count / 2)
            var k = 0
            while k < hex.count {
                guard let high = hexValue(hex[k]), let low = hexValue(hex[k + 1]) else { return nil }
                bytes.append(high << 4 | low)
                k += 2
            }
            return (.blob(Data(bytes)), end)
        }
        // A number: -?digits, with a fraction or an exponent for a real.
        var k = index
        if text[k] == UInt8(ascii: "-") { k += 1 }
        var isReal = false
        while k < text.count {
            let byte = text[k]
            if (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) {
                k += 1
            } else if byte == UInt8(ascii: ".") || byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") {
                isReal = true
                k += 1
            } else if (byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-")) && isReal {
                k += 1
            } else {
                break
            }
        }
        let number = String(decoding: text[index..<k], as: UTF8.self)
        if !isReal, let integer = Int64(number) { return (.integer(integer), k) }
        if let real = Double(number) { return (.real(real), k) }
        return nil
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
