import Foundation
import Slate
import Testing

/// The reads `slate-fuzz --domain values` once counted as known inexact (`KnownInexactRead` in
/// `Sources/SlateFuzzing`): each answered a value that is not the exact conversion of what is
/// stored. Issue 19 makes each of them throw `mismatch` or answer the exact value, and the fuzzer
/// treats any of them as a regression.
@Suite("Exact reads the fuzzer once counted as known lies (issue 13), exact since issue 19")
struct ExactReadExpectationTests {
    /// A read that must throw a `DatabaseError` with `mismatch`, from a live row and a copied one.
    struct Refusal: Sendable, CustomTestStringConvertible {
        var known: String
        var sql: String
        var read: @Sendable (borrowing Row) throws -> Void
        var testDescription: String { "\(known): \(sql)" }
    }

    static let refusals: [Refusal] = [
        Refusal(known: "real-with-fraction-truncated", sql: "SELECT 1.5") { _ = try $0.decode(Int.self, at: 0) },
        Refusal(known: "real-with-fraction-truncated", sql: "SELECT 0.25") { _ = try $0.decode(Bool.self, at: 0) },
        Refusal(known: "real-out-of-range-saturated", sql: "SELECT 1e30") { _ = try $0.decode(Int64.self, at: 0) },
        Refusal(known: "real-out-of-range-saturated", sql: "SELECT 1e30") { _ = try $0.decode(UInt64.self, at: 0) },
        Refusal(known: "integer-rounded-to-floating-point", sql: "SELECT 9007199254740993") {
            _ = try $0.decode(Double.self, at: 0)
        },
        Refusal(known: "text-prefix-read-as-number", sql: "SELECT '12abc'") { _ = try $0.decode(Int.self, at: 0) },
        Refusal(known: "blob-read-as-number", sql: "SELECT x'3132'") { _ = try $0.decode(Int.self, at: 0) },
        Refusal(known: "text-outside-number-syntax-read-as-double", sql: "SELECT 'inf'") {
            _ = try $0.decode(Double.self, at: 0)
        },
        Refusal(known: "text-outside-number-syntax-read-as-double", sql: "SELECT '0x1p3'") {
            _ = try $0.decode(Double.self, at: 0)
        },
        Refusal(known: "text-outside-number-syntax-read-as-decimal", sql: "SELECT '12abc'") {
            _ = try $0.decode(Decimal.self, at: 0)
        },
        Refusal(known: "text-outside-number-syntax-read-as-decimal", sql: "SELECT '2016-05-24'") {
            _ = try $0.decode(Decimal.self, at: 0)
        },
    ]

    @Test(arguments: refusals)
    func lossyReadsThrow(_ refusal: Refusal) throws {
        let db = try Database(location: .inMemory)
        let live: [DatabaseError?] = try db.fetchAll(SQL(sql: refusal.sql)) { row in
            do {
                try refusal.read(row)
                return nil
            } catch let error as DatabaseError {
                return error
            }
        }
        #expect(live.first??.resultCode == .mismatch)
        let copy = try #require(try db.fetchOne(CopiedRow.self, sql: refusal.sql))
        let copied: DatabaseError? = copy.withRow { row in
            do {
                try refusal.read(row)
                return nil
            } catch {
                return error as? DatabaseError
            }
        }
        #expect(copied?.resultCode == .mismatch)
    }

    /// A REAL or INTEGER read as `Float` throws unless the `Float` holds it exactly, from a live
    /// row and a copied one; `Lenient<Float>` rounds.
    @Test func floatReadsAreExactOrThrow() throws {
        let db = try Database(location: .inMemory)
        for sql in ["SELECT 0.1", "SELECT 16777217", "SELECT 1e39", "SELECT '0.1'"] {
            var liveError: DatabaseError?
            do { _ = try db.fetchValue(Float.self, sql: sql) } catch let error as DatabaseError { liveError = error }
            #expect(liveError?.resultCode == .mismatch, "\(sql)")
            let copy = try #require(try db.fetchOne(CopiedRow.self, sql: sql))
            var copiedError: DatabaseError?
            do { _ = try copy.decode(Float.self, at: 0) } catch let error as DatabaseError { copiedError = error }
            #expect(copiedError?.resultCode == .mismatch, "\(sql)")
        }
        #expect(try db.fetchValue(Float.self, sql: "SELECT 0.5") == 0.5)
        #expect(try db.fetchValue(Float.self, sql: "SELECT 16777216") == 16_777_216)
        #expect(try db.fetchValue(Float.self, sql: "SELECT -3.25") == -3.25)
        #expect(try db.fetchValue(Float?.self, sql: "SELECT NULL") == nil)
        let rounded = try db.fetchValue(Lenient<Float>.self, sql: "SELECT 0.1").value
        #expect(rounded == Float(0.1))
        let roundedInteger = try db.fetchValue(Lenient<Float>.self, sql: "SELECT 16777217").value
        #expect(roundedInteger == 16_777_216)
    }

    /// A REAL read as `Decimal` is the number its shortest round-trip decimal text spells, never
    /// `Decimal(Double)`'s binary noise; a number a `Decimal` cannot hold throws.
    @Test func decimalReadsOfRealsAreTheirShortestText() throws {
        let db = try Database(location: .inMemory)
        let posix = Locale(identifier: "en_US_POSIX")
        for real in [2.214119775415665e+18, 0.1, 123.456, -2.5e-10, 1e-5, 3.0] {
            let live = try db.fetchValue(Decimal.self, sql: "SELECT ?", arguments: [real])
            let copied = try #require(try db.fetchOne(CopiedRow.self, sql: "SELECT ?", arguments: [real])).decode(
                Decimal.self, at: 0)
            let expected = Decimal(string: real.description, locale: posix)
            #expect(live == expected, "\(real)")
            #expect(copied == expected, "\(real)")
            // Its text reads back as the same double.
            #expect(Double(live.description) == real, "\(real)")
        }
        #expect(try db.fetchValue(Decimal.self, sql: "SELECT 123.456") == Decimal(string: "123.456", locale: posix))
        // Beyond Decimal's exponent range, or more digits than it holds: mismatch, not a rounded value.
        for sql in ["SELECT 1e300", "SELECT 5e-324", "SELECT '1234567890123456789012345678901234567890123'"] {
            var error: DatabaseError?
            do { _ = try db.fetchValue(Decimal.self, sql: sql) } catch let caught as DatabaseError { error = caught }
            #expect(error?.resultCode == .mismatch, "\(sql)")
        }
        // Trailing zeros are not significant digits: 10^42 is exact.
        let large = try db.fetchValue(Decimal.self, sql: "SELECT '1000000000000000000000000000000000000000000'")
        #expect(large == Decimal(string: "1e42", locale: posix))
        // A 39-digit number the 128-bit mantissa holds reads exactly; one it cannot hold throws.
        let least = "-340282366920938463463374607431768211455" + String(repeating: "0", count: 20)
        #expect(try db.fetchValue(Decimal.self, sql: "SELECT '\(least)'") == Decimal(string: least, locale: posix))
        var tooPrecise: DatabaseError?
        do { _ = try db.fetchValue(Decimal.self, sql: "SELECT '999999999999999999999999999999999999999'") } catch let
            error as DatabaseError
        { tooPrecise = error }
        #expect(tooPrecise?.resultCode == .mismatch)
        let digits38 = "12345678901234567890123456789012345678"
        #expect(
            try db.fetchValue(Decimal.self, sql: "SELECT '\(digits38)'") == Decimal(string: digits38, locale: posix))
    }

    /// Lossless conversions that must answer the exact value.
    @Test func losslessReadsAreExact() throws {
        let db = try Database(location: .inMemory)
        // real-out-of-range-saturated: a REAL between 2^63 and 2^64 has an exact UInt64.
        #expect(try db.fetchValue(UInt64.self, sql: "SELECT 1e19") == 10_000_000_000_000_000_000)
        // TEXT spelling an integer exactly in exponent form is that integer (issue 19's rule).
        #expect(try db.fetchValue(Int.self, sql: "SELECT '1e3'") == 1000)
        // text-parsed-differently-live-and-copied: one parse, live or copied.
        let text = "-6.33174212636523e-295"
        let live = try db.fetchValue(Double.self, sql: "SELECT ?", arguments: [text])
        let copied = try #require(try db.fetchOne(CopiedRow.self, sql: "SELECT ?", arguments: [text])).decode(
            Double.self, at: 0)
        #expect(live.bitPattern == copied.bitPattern)
    }
}
