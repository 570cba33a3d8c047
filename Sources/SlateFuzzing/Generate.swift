import Foundation

/// Values at the edges of what each type holds, mixed with ordinary ones.
enum Generate {
    static let edgeIntegers: [Int64] = [
        0, 1, -1, 2, -2, 7, 127, 128, -128, -129, 255, 256, 32767, 32768, -32768, -32769, 65535, 65536,
        Int64(Int32.max), Int64(Int32.max) + 1, Int64(Int32.min), Int64(Int32.min) - 1, Int64(UInt32.max),
        Int64(UInt32.max) + 1,
        1 << 53, (1 << 53) + 1, -(1 << 53) - 1, (1 << 62), Int64.max, Int64.max - 1, Int64.min, Int64.min + 1,
        1_700_000_000, 1_700_000_000_123, -62_167_219_200, 253_402_300_799, 2_440_587,
    ]

    static func int64(_ entropy: inout Entropy) -> Int64 {
        switch entropy.int(0...5) {
        case 0, 1: return entropy.pick(edgeIntegers)
        case 2: return Int64(entropy.int(-1000...1000))
        case 3: return Int64(bitPattern: entropy.next()) >> entropy.int(0...62)
        default: return Int64(bitPattern: entropy.next())
        }
    }

    static let edgeDoubles: [Double] = [
        0, -0.0, 1, -1, 0.5, -0.5, 1.5, -1.5, 0.1, 1e-300, -1e-300, .pi, 1e15, 1e16, 9_007_199_254_740_992,
        9_007_199_254_740_994,
        9.223372036854775807e18, -9.223372036854775808e18, 9.223372036854776e18, 1.8446744073709552e19, 1e19, -1e19,
        1e30, -1e30, 1e308, .greatestFiniteMagnitude, -.greatestFiniteMagnitude, .leastNonzeroMagnitude,
        .leastNormalMagnitude, .infinity, -.infinity, .nan, -.nan, Double(Float.greatestFiniteMagnitude),
        Double(Float.greatestFiniteMagnitude) * 2, 3.4028235677973366e38, 2440587.5, 1_700_000_000.123,
        -62_167_219_200.0005, 253_402_300_799.9995, 127.0, 128.0, 255.5, 65535.0, 4294967295.0, 4294967296.0,
    ]

    static func double(_ entropy: inout Entropy) -> Double {
        switch entropy.int(0...5) {
        case 0, 1: return entropy.pick(edgeDoubles)
        case 2: return Double(entropy.int(-100_000...100_000)) / Double(entropy.pick([1, 2, 4, 10, 1000, 3]))
        case 3: return Double(bitPattern: entropy.next())
        case 4: return Double(int64(&entropy))
        default: return (entropy.unit() - 0.5) * pow(10, Double(entropy.int(-20...20)))
        }
    }

    /// Text, often shaped like something a reader might take for a number, a date, a UUID, a URL
    /// or JSON.
    static func string(_ entropy: inout Entropy) -> String {
        switch entropy.int(0...13) {
        case 0:
            return entropy.pick([
                "", " ", "0", "-0", "+5", " 12 ", "12abc", "1e3", "1E-3", "1.5", ".5", "5.", "0x10", "0x1p3",
                "inf", "-inf", "nan", "NaN", "infinity", "1e400", "-1e400", "9223372036854775807",
                "9223372036854775808", "-9223372036854775809", "18446744073709551615", "18446744073709551616",
                "00012", "1_000", "١٢", "１２", "\t7", "7\n", "1,5", "true", "NULL", "12e", "e5", "+", "-", ".",
                "123456789012345678901234567890123456789012", "0.1000000000000000055511151231257827",
            ])
        case 1: return String(int64(&entropy))
        case 2: return String(double(&entropy))
        case 3: return dateText(&entropy)
        case 4: return entropy.bool() ? uuid(&entropy).uuidString : uuid(&entropy).uuidString.lowercased()
        case 5:
            return entropy.pick([
                "https://example.com/a?b=c#d", "file:///tmp/a%20b", "a/b", "http://ü.de", "mailto:x@y", "//host",
                "http://[::1]:80/", "%", "http://a b", "\u{0}", "s3://bucket/key",
            ])
        case 6:
            return entropy.pick(["{}", "[]", "{\"a\":1}", "{\"a\":[1,2,3]}", "[1,2", "null", "{\"a\":1e999}", "\"x\""])
        case 7:
            return entropy.pick([
                "'", "\"", "\\", "'; DROP TABLE v; --", "\u{0}x", "a\u{0}b", "é", "e\u{301}", "🇫🇷", "👨‍👩‍👧",
                "\u{202E}abc", "\u{FEFF}", "\u{10FFFF}", "Ω", "ß", "İ",
            ])
        case 8:
            // Huge: up to 2 MB.
            let count = entropy.chance(0.2) ? entropy.int(100_000...2_000_000) : entropy.int(100...5000)
            return String(repeating: entropy.pick(["a", "é", "1", "🙂"]), count: count)
        default:
            let length = entropy.size(upTo: 200)
            var scalars = String.UnicodeScalarView()
            for _ in 0..<length {
                let value: UInt32
                switch entropy.int(0...3) {
                case 0: value = UInt32(entropy.int(0x20...0x7E))
                case 1: value = UInt32(entropy.int(0...0x7F))
                case 2: value = UInt32(entropy.int(0x80...0xFFFF))
                default: value = UInt32(entropy.int(0x10000...0x10FFFF))
                }
                if let scalar = Unicode.Scalar(value) { scalars.append(scalar) }
            }
            return String(scalars)
        }
    }

    /// ISO-8601-like text, valid or nearly so.
    static func dateText(_ entropy: inout Entropy) -> String {
        func two(_ value: Int) -> String { value < 10 && value >= 0 ? "0\(value)" : "\(value)" }
        let year =
            entropy.chance(0.8) ? entropy.int(1900...2100) : entropy.pick([0, 1, 999, 1582, 1970, 9999, 10000, -1])
        let month = entropy.chance(0.9) ? entropy.int(1...12) : entropy.pick([0, 13, 99])
        let day = entropy.chance(0.85) ? entropy.int(1...28) : entropy.pick([0, 29, 30, 31, 32])
        var text = String(repeating: "0", count: max(0, 4 - String(year).count)) + "\(year)-\(two(month))-\(two(day))"
        if entropy.chance(0.7) {
            text += entropy.pick([" ", "T", "t", "  "])
            text +=
                two(entropy.chance(0.9) ? entropy.int(0...23) : 24) + ":"
                + two(entropy.chance(0.9) ? entropy.int(0...59) : 60)
            if entropy.chance(0.8) {
                text += ":" + two(entropy.chance(0.9) ? entropy.int(0...59) : 60)
                if entropy.chance(0.6) {
                    let digits = entropy.int(0...7)
                    text += "." + String((0..<digits).map { _ in Character(String(entropy.int(0...9))) })
                }
            }
            switch entropy.int(0...4) {
            case 0: text += "Z"
            case 1:
                text +=
                    (entropy.bool() ? "+" : "-") + two(entropy.int(0...15)) + ":"
                    + two(entropy.pick([0, 30, 45, 59, 60]))
            case 2: text += (entropy.bool() ? "+" : "-") + two(entropy.int(0...23)) + two(entropy.pick([0, 30]))
            default: break
            }
        }
        if entropy.chance(0.05) { text = " " + text + " " }
        return text
    }

    static func bytes(_ entropy: inout Entropy) -> [UInt8] {
        switch entropy.int(0...7) {
        case 0: return []
        case 1: return entropy.bytes(16)
        case 2: return Array(string(&entropy).utf8)
        case 3:
            return entropy.pick([
                [0xFF], [0xC0, 0x80], [0xED, 0xA0, 0x80], [0x61, 0x80, 0x62], [0xF4, 0x90, 0x80, 0x80], [0xE2, 0x82],
            ])
                + (entropy.bool() ? Array("12".utf8) : [])
        case 4:
            return entropy.chance(0.2)
                ? entropy.bytes(entropy.int(100_000...4_000_000)) : entropy.bytes(entropy.int(1...4096))
        default: return entropy.bytes(entropy.size(upTo: 300))
        }
    }

    static func date(_ entropy: inout Entropy) -> Date {
        let seconds: Double
        switch entropy.int(0...7) {
        case 0:
            seconds = entropy.pick([
                0, -0.0, 0.0005, -0.0005, 0.0015, 1e-7, -62_167_219_200, -62_167_219_200.0005, -62_167_219_200.001,
                253_402_300_799.999, 253_402_300_799.9995, 253_402_300_800, -9223372036854775.808, 9223372036854775.807,
                9.2233720368547758e15, -9.2233720368547758e15, 1e17, -1e17, 1e300, -1e300, .greatestFiniteMagnitude,
                -.greatestFiniteMagnitude, .infinity, -.infinity, .nan, .leastNonzeroMagnitude, 1_709_164_800,
                951_782_400,
                -210_866_760_000, 1e10, -1e10,
            ])
        case 1: seconds = Double(entropy.int(-62_167_219_200...253_402_300_799))
        case 2: seconds = Double(entropy.int(-62_167_219_200_000...253_402_300_799_999)) / 1000
        case 3: seconds = Double(entropy.int(0...2_000_000_000)) + entropy.unit()
        case 4: seconds = Double(int64(&entropy)) / entropy.pick([1, 1000, 1_000_000])
        case 5: seconds = double(&entropy)
        default: seconds = (entropy.unit() - 0.5) * 2 * 253_402_300_799
        }
        return Date(timeIntervalSince1970: seconds)
    }

    static func decimal(_ entropy: inout Entropy) -> Decimal {
        switch entropy.int(0...4) {
        case 0:
            return entropy.pick([
                Decimal(0), Decimal(1), Decimal(-1), decimal("0.1"), decimal("3.14159265358979323846264338327950288"),
                Decimal.greatestFiniteMagnitude, Decimal.leastFiniteMagnitude, Decimal.leastNonzeroMagnitude,
                decimal("1e100"), decimal("-1e-100"), Decimal(Int64.max), Decimal(Int64.min), Decimal(UInt64.max),
                Decimal.nan,
            ])
        case 1: return Decimal(int64(&entropy))
        case 2:
            return Decimal(
                sign: entropy.bool() ? .minus : .plus, exponent: entropy.int(-40...40),
                significand: Decimal(entropy.next() >> entropy.int(0...63)))
        default:
            let digits = (0..<entropy.int(1...40)).map { _ in String(entropy.int(0...9)) }.joined()
            let point = entropy.int(0...digits.count)
            let text = (entropy.bool() ? "-" : "") + digits.prefix(point) + "." + digits.dropFirst(point) + "0"
            return Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")) ?? Decimal(0)
        }
    }

    /// A decimal literal of this file.
    private static func decimal(_ text: String) -> Decimal {
        Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")) ?? Decimal(0)
    }

    static func uuid(_ entropy: inout Entropy) -> UUID {
        let b = entropy.bytes(16)
        return UUID(
            uuid: (b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15])
        )
    }

    static func url(_ entropy: inout Entropy) -> URL {
        for _ in 0..<4 {
            let candidate =
                entropy.chance(0.6)
                ? entropy.pick([
                    "https://example.com/a?b=c#d", "file:///tmp/a%20b", "a/b", "mailto:x@y", "//host",
                    "http://[::1]:80/",
                    "https://user:pw@host:8080/p/a/t/h?query=1&x=%E2%82%AC", "urn:isbn:0451450523",
                    "https://xn--n3h.com/",
                ])
                : "https://example.com/"
                    + (string(&entropy).addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? "x")
            if let url = URL(string: candidate) { return url }
        }
        return URL(fileURLWithPath: "/tmp")
    }
}
