import Foundation
import Slate
import SlateCore
import Testing

/// Text read from a live row takes a fast path by length (ASCII checked 8 bytes at a time, up to 15
/// bytes built as a small string, other bytes validated): every length around those steps reads
/// back exactly, and bytes that are not UTF-8 at any position are refused (`mismatch`, and a blob
/// of the exact bytes as a value), never repaired.
struct ExactTextLengthTests {
    /// Reads `bytes` cast to TEXT from a live row, as `String`.
    static func string(_ bytes: [UInt8], in db: Database) throws -> String {
        let data: Data = Data(bytes)
        let strings: [String] = try db.fetchAll(SQL("SELECT CAST(\(data) AS TEXT) AS v")) { row in
            try row.decode(String.self, at: 0)
        }
        return try #require(strings.first)
    }

    /// Reads `bytes` cast to TEXT from a live row, as `String?`.
    static func optionalString(_ bytes: [UInt8], in db: Database) throws -> String? {
        let data: Data = Data(bytes)
        let strings: [String?] = try db.fetchAll(SQL("SELECT CAST(\(data) AS TEXT) AS v")) { row in
            try row.decode(String?.self, at: 0)
        }
        return try #require(strings.first)
    }

    /// Reads `bytes` cast to TEXT from a live row, as a value.
    static func value(_ bytes: [UInt8], in db: Database) throws -> SQLValue {
        let data: Data = Data(bytes)
        let values: [SQLValue] = try db.fetchAll(SQL("SELECT CAST(\(data) AS TEXT) AS v")) { row in row.value(at: 0) }
        return try #require(values.first)
    }

    /// Whether `read` throws a `mismatch` error.
    static func throwsMismatch(_ read: () throws -> Void) -> Bool {
        do {
            try read()
            return false
        } catch let error as DatabaseError {
            return error.resultCode == .mismatch
        } catch {
            return false
        }
    }

    @Test func asciiOfEveryLengthReadsBackExactly() throws {
        let db: Database = try Database.memory()
        for length in 0...40 {
            let bytes: [UInt8] = (0..<length).map { (index: Int) -> UInt8 in UInt8(97 + index % 26) }
            let expected: String = String(decoding: bytes, as: UTF8.self)
            let string: String = try Self.string(bytes, in: db)
            let optional: String? = try Self.optionalString(bytes, in: db)
            let value: SQLValue = try Self.value(bytes, in: db)
            #expect(string == expected, "length \(length)")
            #expect(optional == expected, "length \(length)")
            #expect(value == SQLValue.text(expected), "length \(length)")
        }
    }

    @Test func aZeroByteAtEveryPositionIsKept() throws {
        let db: Database = try Database.memory()
        for length in 1...20 {
            for position in 0..<length {
                var bytes: [UInt8] = [UInt8](repeating: 0x61, count: length)
                bytes[position] = 0
                let expected: String = String(decoding: bytes, as: UTF8.self)
                let string: String = try Self.string(bytes, in: db)
                #expect(string == expected, "length \(length), zero at \(position)")
                #expect(string.utf8.count == length)
            }
        }
    }

    @Test func nonASCIITextAtEveryPositionReadsBackExactly() throws {
        let db: Database = try Database.memory()
        // é (2 bytes), € (3 bytes), 😀 (4 bytes).
        let characters: [[UInt8]] = [[0xC3, 0xA9], [0xE2, 0x82, 0xAC], [0xF0, 0x9F, 0x98, 0x80]]
        for character in characters {
            for before in 0...18 {
                for after in [0, 1, 7, 16] {
                    let bytes: [UInt8] =
                        [UInt8](repeating: 0x62, count: before) + character + [UInt8](repeating: 0x63, count: after)
                    let expected: String = String(decoding: bytes, as: UTF8.self)
                    let string: String = try Self.string(bytes, in: db)
                    let value: SQLValue = try Self.value(bytes, in: db)
                    #expect(string == expected, "\(bytes)")
                    #expect(value == SQLValue.text(expected), "\(bytes)")
                }
            }
        }
    }

    @Test func aNonUTF8ByteAtEveryPositionIsRefused() throws {
        let db: Database = try Database.memory()
        // A lone 0xFF, a lead byte without its continuation, a stray continuation byte, and the
        // start of an encoded surrogate (ED A0 80).
        let invalid: [[UInt8]] = [[0xFF], [0xC3], [0x80], [0xED, 0xA0, 0x80]]
        for sequence in invalid {
            for length in 1...40 {
                for position in 0..<length {
                    var bytes: [UInt8] = [UInt8](repeating: 0x61, count: length)
                    bytes.replaceSubrange(position...position, with: sequence)
                    let string: Bool = Self.throwsMismatch { _ = try Self.string(bytes, in: db) }
                    let optional: Bool = Self.throwsMismatch { _ = try Self.optionalString(bytes, in: db) }
                    let value: SQLValue = try Self.value(bytes, in: db)
                    #expect(string, "\(bytes)")
                    #expect(optional, "\(bytes)")
                    #expect(value == SQLValue.blob(Data(bytes)), "\(bytes)")
                }
            }
        }
    }

    /// The reader earlier Apple systems use (no `UTF8Span` before the Swift 6.2 runtime) gives the
    /// same answer as the one that runs here, on every kind of text above: it is compiled
    /// everywhere but runs only there, so it is checked directly.
    @Test func theReaderWithoutUTF8SpanAgreesOnEveryKindOfText() {
        var samples: [[UInt8]] = (0...40).map { (length: Int) -> [UInt8] in
            (0..<length).map { (index: Int) -> UInt8 in UInt8(97 + index % 26) }
        }
        let zeroInside: [UInt8] = [0x61, 0x00, 0x62]
        let multibyte: [UInt8] =
            [0x62, 0xC3, 0xA9, 0xE2, 0x82, 0xAC, 0xF0, 0x9F, 0x98, 0x80] + [UInt8](repeating: 0x63, count: 16)
        samples.append(zeroInside)
        samples.append(multibyte)
        let invalid: [[UInt8]] = [[0xFF], [0xC3], [0x80], [0xED, 0xA0, 0x80], [0x61, 0x62, 0xC3]]
        for sequence in invalid {
            for length in [1, 8, 17] {
                for position in [0, length - 1] {
                    var bytes: [UInt8] = [UInt8](repeating: 0x61, count: length)
                    bytes.replaceSubrange(position...position, with: sequence)
                    samples.append(bytes)
                }
            }
        }
        var refused: Int = 0
        for bytes in samples {
            let (fast, fallback): (String?, String?) = bytes.withUnsafeBufferPointer {
                (buffer: UnsafeBufferPointer<UInt8>) -> (String?, String?) in
                guard let base = buffer.baseAddress else { return ("", String(decodingExactUTF8: buffer)) }
                return (String(exactUTF8: base, count: buffer.count), String(decodingExactUTF8: buffer))
            }
            #expect(fast == fallback, "\(bytes)")
            if let fallback {
                let expected: [UInt8] = bytes
                #expect(Array(fallback.utf8) == expected, "\(bytes)")
            } else {
                refused += 1
            }
        }
        // Every invalid sample (5 sequences × 3 lengths × 2 positions) and nothing else is refused.
        #expect(refused == 30)
    }
}
