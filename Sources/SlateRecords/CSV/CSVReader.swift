import Foundation
import SlateConcurrency
import SlateCore
import SlateQuery

/// A streaming RFC 4180 reader: it parses the UTF-8 bytes of a ``CSVInput`` in place, one record
/// at a time, without making strings.
///
/// The reader keeps one buffer. A record is parsed where it lies; when the buffer ends in the
/// middle of a record, the record's bytes move to the front, the rest of the buffer is filled from
/// the file, and the record is parsed again from its start. The buffer grows only when a single
/// record fills more than half of it, so memory depends on the longest record, never on the size
/// of the file.
///
/// Grammar: fields are separated by the delimiter; records end with CRLF, LF, a lone CR, or the
/// end of the file. A field that starts with `"` is quoted: it runs to the next `"` that is not
/// doubled and may hold delimiters and line breaks; `""` inside it is one quote. A quote inside an
/// unquoted field is kept as it is. A closing quote followed by anything but a delimiter or a line
/// ending makes the record invalid (``Problem/textAfterClosingQuote``), which the importer reports
/// or skips. A quote still open at the end of the file is an error.
///
/// More than 15 stored properties, on purpose: the buffer, the current record's fields and the
/// reader's position are raw state of the per-byte loop, kept in one object so the loop touches no
/// other.
final class CSVReader {
    /// Where one field of the current record lies in the buffer.
    struct Field {
        /// The offset of its first byte (after the opening quote, for a quoted field).
        var start: Int
        /// Its length in bytes, after `""` pairs were made single quotes.
        var count: Int
        /// ``quotedFlag``, ``nonASCIIFlag``, ``escapedFlag``.
        var flags: UInt8
    }

    /// Why the current record cannot be imported, although the reader could find where it ends.
    enum Problem: Equatable {
        case textAfterClosingQuote(field: Int)
        case invalidEncoding(field: Int, offset: Int, byte: UInt8)
    }

    static let quotedFlag: UInt8 = 1
    static let nonASCIIFlag: UInt8 = 2
    static let escapedFlag: UInt8 = 4

    /// The default buffer size: also how much is read from the file at a time.
    static let defaultChunkSize = 256 * 1024

    let input: CSVInput
    let delimiter: UInt8
    let maximumRecordLength: Int

    /// The buffer. Bytes `position..<end` are read but not parsed yet.
    private(set) var buffer: UnsafeMutablePointer<UInt8>
    /// The buffer's size. It stays at the chunk size unless one record needs more.
    private(set) var capacity: Int
    private var end = 0
    private var position = 0
    private var atEndOfFile = false

    /// The fields of the current record: `fields[0..<fieldCount]`.
    private(set) var fields: UnsafeMutablePointer<Field>
    private(set) var fieldCount = 0
    private var fieldCapacity = 64

    /// The line on which the current record starts (1-based).
    private(set) var line = 0
    private var nextLine = 1
    /// Why the current record is invalid, if it is.
    private(set) var problem: Problem?
    /// How many times the buffer was filled from the file: it changes once per chunk.
    private(set) var refillCount = 0
    /// Called before the buffer is refilled, which moves or frees the bytes of the records read
    /// so far: whoever still points into them must finish with them now.
    var willRefill: (() throws -> Void)?

    /// For each byte value: bit 0 ends an unquoted field (delimiter, CR, LF), bit 1 interrupts a
    /// quoted one (quote, CR, LF).
    private let classes: UnsafeMutablePointer<UInt8>

    private static let quote = UInt8(ascii: "\"")
    private static let lineFeed: UInt8 = 0x0A
    private static let carriageReturn: UInt8 = 0x0D

    init(input: CSVInput, delimiter: UInt8, maximumRecordLength: Int, chunkSize: Int = CSVReader.defaultChunkSize) {
        self.input = input
        self.delimiter = delimiter
        self.maximumRecordLength = max(1, maximumRecordLength)
        capacity = max(CSVInput.minimumCapacity * 2, chunkSize)
        buffer = .allocate(capacity: capacity)
        fields = .allocate(capacity: fieldCapacity)
        classes = .allocate(capacity: 256)
        classes.initialize(repeating: 0, count: 256)
        classes[Int(delimiter)] |= 1
        for byte in [Self.lineFeed, Self.carriageReturn] {
            classes[Int(byte)] |= 3
        }
        classes[Int(Self.quote)] |= 2
    }

    deinit {
        buffer.deallocate()
        fields.deallocate()
        classes.deallocate()
    }

    // MARK: Reading records

    /// Parses the next record. Returns `false` at the end of the file.
    ///
    /// - Throws: ``CSVError`` for an unterminated quote, a record longer than the limit, or a
    ///   file that cannot be read.
    func nextRecord() throws -> Bool {
        while true {
            switch parseRecord() {
            case .record(let next, let lines):
                if next - position > maximumRecordLength {
                    line = nextLine
                    throw CSVError(
                        .recordTooLong(limit: maximumRecordLength), file: input.path, line: nextLine, row: rawExcerpt())
                }
                position = next
                line = nextLine
                nextLine += lines
                finishRecord()
                return true
            case .endOfInput:
                return false
            case .needMore:
                try refill()
            case .unterminatedQuote:
                line = nextLine
                throw CSVError(.unterminatedQuote, file: input.path, line: nextLine, row: rawExcerpt())
            }
        }
    }

    /// Whether the current record is an empty line: one empty, unquoted field.
    var isBlankLine: Bool {
        fieldCount == 1 && fields[0].count == 0 && fields[0].flags & Self.quotedFlag == 0
    }

    /// The bytes of field `index` of the current record.
    func bytes(ofField index: Int) -> UnsafeBufferPointer<UInt8> {
        let field = fields[index]
        return UnsafeBufferPointer(start: buffer + field.start, count: field.count)
    }

    /// Field `index` of the current record as a string (invalid UTF-8 is repaired).
    func string(ofField index: Int) -> String {
        string(of: fields[index])
    }

    /// A field of this or an earlier record (not refilled since) as a string.
    func string(of field: Field) -> String {
        String(decoding: UnsafeBufferPointer(start: buffer + field.start, count: field.count), as: UTF8.self)
    }

    /// The current record, re-quoted where needed and truncated, for messages.
    func excerpt() -> String {
        excerpt(of: fields, count: fieldCount)
    }

    /// A record of fields (of this or an earlier record, not refilled since), re-quoted where
    /// needed and truncated, for messages.
    func excerpt(of fields: UnsafePointer<Field>, count: Int) -> String {
        var text = ""
        let separator = String(decoding: [delimiter], as: UTF8.self)
        for index in 0..<count {
            if index > 0 { text += separator }
            let value = string(of: fields[index])
            if fields[index].flags & Self.quotedFlag != 0 {
                text += "\"" + value.replacingOccurrences(of: "\"", with: "\"\"") + "\""
            } else {
                text += value
            }
            if text.count > CSVText.excerptLength { break }
        }
        return CSVText.truncated(text)
    }

    /// The unparsed bytes from the start of the current record, for an unterminated quote.
    private func rawExcerpt() -> String {
        let count = min(end - position, CSVText.excerptLength * 4)
        return CSVText.truncated(
            String(decoding: UnsafeBufferPointer(start: buffer + position, count: count), as: UTF8.self))
    }

    // MARK: Parsing

    private enum Outcome {
        case record(next: Int, lines: Int)
        case needMore
        case endOfInput
        case unterminatedQuote
    }

    private func appendField(start: Int, count: Int, flags: UInt8, at index: Int) {
        if index == fieldCapacity { growFields() }
        fields[index] = Field(start: start, count: count, flags: flags)
    }

    private func growFields() {
        let larger = UnsafeMutablePointer<Field>.allocate(capacity: fieldCapacity * 2)
        larger.moveInitialize(from: fields, count: fieldCapacity)
        fields.deallocate()
        fields = larger
        fieldCapacity *= 2
    }

    /// Parses one record from `position`, without changing the reader's position.
    private func parseRecord() -> Outcome {
        let base = buffer
        let end = self.end
        let isLast = atEndOfFile
        let delimiter = self.delimiter
        let classes = self.classes
        let quote = Self.quote
        let lineFeed = Self.lineFeed
        let delimiters = Self.repeated(delimiter)
        let quotes = Self.repeated(quote)
        let lineFeeds = Self.repeated(lineFeed)
        let carriageReturns = Self.repeated(Self.carriageReturn)
        var p = position
        var lines = 0
        var count = 0
        problem = nil
        fieldCount = 0
        if p == end { return isLast ? .endOfInput : .needMore }

        // Where a record ends after a field that stopped at `p` (a delimiter, a line ending, or
        // the end of the buffer): nil when another field follows.
        while true {
            if p == end {
                // Only after a delimiter: the record ends with an empty field.
                if !isLast { return .needMore }
                appendField(start: p, count: 0, flags: 0, at: count)
                fieldCount = count + 1
                return .record(next: p, lines: lines)
            }
            if base[p] == quote {
                p += 1
                let start = p
                var flags = Self.quotedFlag
                var bits: UInt8 = 0
                while true {
                    while p < end {
                        // Eight bytes at a time up to the next quote, CR or LF.
                        while p &+ 8 <= end {
                            let word = UnsafeRawPointer(base + p).loadUnaligned(as: UInt64.self)
                            let found =
                                Self.bytes(in: word, equalTo: quotes) | Self.bytes(in: word, equalTo: lineFeeds)
                                | Self.bytes(in: word, equalTo: carriageReturns)
                            if found != 0 {
                                let offset = found.trailingZeroBitCount >> 3
                                if word & Self.lowBytesMask(offset) & Self.highBits != 0 { bits |= 0x80 }
                                p &+= offset
                                break
                            }
                            if word & Self.highBits != 0 { bits |= 0x80 }
                            p &+= 8
                        }
                        guard p < end else { break }
                        let byte = base[p]
                        if classes[Int(byte)] & 2 != 0 {
                            if byte == quote { break }
                            if byte == lineFeed || p + 1 == end || base[p + 1] != lineFeed { lines += 1 }
                        }
                        bits |= byte
                        p += 1
                    }
                    if p == end { return isLast ? .unterminatedQuote : .needMore }
                    // base[p] is a quote: doubled, or closing?
                    if p + 1 == end && !isLast { return .needMore }
                    if p + 1 < end && base[p + 1] == quote {
                        flags |= Self.escapedFlag
                        p += 2
                        continue
                    }
                    break
                }
                if bits & 0x80 != 0 { flags |= Self.nonASCIIFlag }
                appendField(start: start, count: p - start, flags: flags, at: count)
                count += 1
                p += 1  // the closing quote
                if p < end, classes[Int(base[p])] & 1 == 0 {
                    // Text after the closing quote: the record is invalid; find where it ends.
                    if problem == nil { problem = .textAfterClosingQuote(field: count) }
                    while p < end, classes[Int(base[p])] & 1 == 0 { p += 1 }
                }
            } else {
                let start = p
                var bits: UInt8 = 0
                while p < end {
                    // Eight bytes at a time up to the next delimiter, CR or LF.
                    while p &+ 8 <= end {
                        let word = UnsafeRawPointer(base + p).loadUnaligned(as: UInt64.self)
                        let found =
                            Self.bytes(in: word, equalTo: delimiters) | Self.bytes(in: word, equalTo: lineFeeds)
                            | Self.bytes(in: word, equalTo: carriageReturns)
                        if found != 0 {
                            let offset = found.trailingZeroBitCount >> 3
                            if word & Self.lowBytesMask(offset) & Self.highBits != 0 { bits |= 0x80 }
                            p &+= offset
                            break
                        }
                        if word & Self.highBits != 0 { bits |= 0x80 }
                        p &+= 8
                    }
                    guard p < end else { break }
                    let byte = base[p]
                    if classes[Int(byte)] & 1 != 0 { break }
                    bits |= byte
                    p += 1
                }
                appendField(start: start, count: p - start, flags: bits & 0x80 != 0 ? Self.nonASCIIFlag : 0, at: count)
                count += 1
            }
            // After a field: a delimiter, a line ending, or the end of the buffer.
            if p == end {
                if !isLast { return .needMore }
                fieldCount = count
                return .record(next: p, lines: lines)
            }
            let byte = base[p]
            if byte == delimiter {
                p += 1
                continue
            }
            fieldCount = count
            if byte == lineFeed { return .record(next: p + 1, lines: lines + 1) }
            // A carriage return, alone or before a line feed.
            if p + 1 == end {
                if !isLast { return .needMore }
                return .record(next: p + 1, lines: lines + 1)
            }
            return .record(next: base[p + 1] == lineFeed ? p + 2 : p + 1, lines: lines + 1)
        }
    }

    // Word-at-a-time scanning (SWAR) over little-endian 64-bit loads.

    private static let highBits: UInt64 = 0x8080_8080_8080_8080
    private static let lowBits: UInt64 = 0x0101_0101_0101_0101

    /// `byte` in each of the eight bytes of a word.
    private static func repeated(_ byte: UInt8) -> UInt64 { UInt64(byte) &* lowBits }

    /// A word whose lowest set bit is the high bit of the first byte of `word` equal to the byte
    /// `pattern` repeats, or 0 when there is none. (Bits above the first match may be wrong,
    /// which is why only the lowest is used.)
    private static func bytes(in word: UInt64, equalTo pattern: UInt64) -> UInt64 {
        let difference = word ^ pattern
        return (difference &- lowBits) & ~difference & highBits
    }

    /// The bits of the first `count` bytes of a word (0 to 7).
    private static func lowBytesMask(_ count: Int) -> UInt64 {
        (1 &<< UInt64(count &* 8)) &- 1
    }

    /// Validates the text of the record's fields and turns their `""` into `"`.
    private func finishRecord() {
        for index in 0..<fieldCount {
            let field = fields[index]
            if field.flags & Self.nonASCIIFlag != 0, problem == nil,
                let offset = CSVUTF8.firstInvalidByte(in: buffer + field.start, count: field.count)
            {
                problem = .invalidEncoding(field: index + 1, offset: offset, byte: buffer[field.start + offset])
            }
            if field.flags & Self.escapedFlag != 0 {
                fields[index].count = unescape(start: field.start, count: field.count)
            }
        }
    }

    /// Collapses each `""` of a quoted field into `"`, in place. Returns the new length.
    private func unescape(start: Int, count: Int) -> Int {
        let base = buffer + start
        var read = 0
        var write = 0
        while read < count {
            let byte = base[read]
            base[write] = byte
            write += 1
            read += byte == Self.quote ? 2 : 1
        }
        return write
    }

    // MARK: Buffer

    /// Moves the unparsed bytes to the front of the buffer and reads more after them.
    private func refill() throws {
        try willRefill?()
        let pending = end - position
        if pending > maximumRecordLength {
            throw CSVError(
                .recordTooLong(limit: maximumRecordLength), file: input.path, line: nextLine, row: rawExcerpt())
        }
        if position > 0 {
            if pending > 0 { memmove(buffer, buffer + position, pending) }
            position = 0
            end = pending
        }
        // A record that fills more than half the buffer: double it, so that re-parsing the record
        // after each read stays cheap.
        if pending > capacity / 2 || capacity - end < CSVInput.minimumCapacity {
            let larger = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity * 2)
            larger.update(from: buffer, count: end)
            buffer.deallocate()
            buffer = larger
            capacity *= 2
        }
        let got = try input.read(into: buffer + end, capacity: capacity - end)
        refillCount += 1
        if got == 0 {
            atEndOfFile = true
        } else {
            end += got
        }
    }
}

/// UTF-8 validation.
enum CSVUTF8 {
    /// The offset of the first byte that makes `bytes` invalid UTF-8 (overlong forms, surrogates
    /// and scalars above U+10FFFF included), or `nil` when the bytes are valid.
    static func firstInvalidByte(in bytes: UnsafePointer<UInt8>, count: Int) -> Int? {
        var index = 0
        while index < count {
            let lead = bytes[index]
            if lead < 0x80 {
                index += 1
                continue
            }
            let length: Int
            var low: UInt8 = 0x80
            var high: UInt8 = 0xBF
            switch lead {
            case 0xC2...0xDF: length = 2
            case 0xE0:
                length = 3
                low = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: length = 3
            case 0xED:
                length = 3
                high = 0x9F
            case 0xF0:
                length = 4
                low = 0x90
            case 0xF1...0xF3: length = 4
            case 0xF4:
                length = 4
                high = 0x8F
            default: return index
            }
            guard index + 1 < count, bytes[index + 1] >= low, bytes[index + 1] <= high else {
                return index
            }
            for offset in 2..<length {
                guard index + offset < count, bytes[index + offset] & 0xC0 == 0x80 else { return index }
            }
            index += length
        }
        return nil
    }
}
