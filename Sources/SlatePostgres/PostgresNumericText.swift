// The exact text of PostgreSQL `numeric` values, read by PostgresRowSource.

import NIOCore

/// The exact decimal text of a `numeric` in PostgreSQL's binary format: `ndigits`, `weight`,
/// `sign` and `dscale` (16 bits each), then base-10000 digits.
enum NumericText {
    static func decode(_ buffer: inout ByteBuffer) -> String? {
        guard let count = buffer.readInteger(as: Int16.self), let weight = buffer.readInteger(as: Int16.self),
            let sign = buffer.readInteger(as: UInt16.self), let scale = buffer.readInteger(as: Int16.self), count >= 0,
            scale >= 0
        else { return nil }
        switch sign {
        case 0x0000, 0x4000: break
        case 0xC000: return "NaN"
        case 0xD000: return "Infinity"
        case 0xF000: return "-Infinity"
        default: return nil
        }
        var digits: [Int16] = []
        digits.reserveCapacity(Int(count))
        for _ in 0..<count {
            guard let digit = buffer.readInteger(as: Int16.self), digit >= 0, digit < 10000 else { return nil }
            digits.append(digit)
        }
        // Integer part: groups 0...weight; fractional part: the groups after, to `scale` digits.
        var integerPart = ""
        if weight >= 0 {
            for group in 0...Int(weight) {
                let digit = group < digits.count ? digits[group] : 0
                let text = String(digit)
                integerPart += group == 0 ? text : String(repeating: "0", count: 4 - text.count) + text
            }
        } else {
            integerPart = "0"
        }
        var fraction = ""
        if scale > 0 {
            var group = Int(weight) + 1
            while fraction.count < Int(scale) {
                let digit: Int16 = group >= 0 && group < digits.count ? digits[group] : 0
                let text = String(digit)
                fraction += String(repeating: "0", count: 4 - text.count) + text
                group += 1
            }
            fraction = String(fraction.prefix(Int(scale)))
        }
        let negative = sign == 0x4000 && (integerPart.contains { $0 != "0" } || fraction.contains { $0 != "0" })
        return (negative ? "-" : "") + integerPart + (fraction.isEmpty ? "" : "." + fraction)
    }
}
