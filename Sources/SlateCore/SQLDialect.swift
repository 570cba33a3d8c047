import Foundation

/// The SQL language a statement is written in: SQLite's, or PostgreSQL's.
///
/// Slate builds one ``SQL`` value per statement, whatever the engine. Its ``SQL/text`` is
/// SQLite's, byte for byte; the few constructs PostgreSQL writes differently (placeholders,
/// `LIKE` and `GLOB`, `IS`, `LIMIT -1`, `INSERT OR …`, some functions) are recorded beside the
/// text with PostgreSQL's SQL, or with the reason PostgreSQL has none. ``SQL/rendered(for:)``
/// writes the statement in a dialect:
///
/// ```swift
/// let query = SQL(sql: "SELECT * FROM \(identifier: "Track") WHERE \(identifier: "Name") = \("Go") LIMIT 1")
/// let postgres = try query.rendered(for: .postgreSQL)
/// // postgres.text: SELECT * FROM "Track" WHERE "Name" = $1 LIMIT 1
/// ```
///
/// A construct that renders differently is written once, with ``SQL/init(sqlite:postgreSQL:)``
/// (or ``SQL/init(sqlite:unsupportedOnPostgreSQL:)`` when PostgreSQL has no equivalent); all
/// other SQL is shared.
public enum SQLDialect: String, Sendable, Hashable, CaseIterable {
    /// SQLite: the text as built, with `?` placeholders.
    case sqlite
    /// PostgreSQL: `$1`, `$2`, … placeholders and PostgreSQL's spelling of the constructs that
    /// differ.
    case postgreSQL
}

/// A statement written in one dialect: the text and its positional arguments, in order.
public struct RenderedSQL: Sendable {
    /// The SQL text.
    public var text: String
    /// The values of the placeholders, in order.
    public var arguments: [(any SQLBindable)?]

    /// A rendered statement.
    public init(text: String, arguments: [(any SQLBindable)?]) {
        self.text = text
        self.arguments = arguments
    }
}

/// A part of an ``SQL`` value's text that PostgreSQL writes differently.
@usableFromInline
package struct DialectSpan: Sendable {
    /// The part of the text, as UTF-8 offsets.
    package var textRange: Range<Int>
    /// The positional arguments of that part.
    package var argumentRange: Range<Int>
    /// What PostgreSQL writes instead.
    package var postgreSQL: DialectAlternative

    /// Appends `spans`, found in a fragment appended at `textOffset` and `argumentOffset`.
    package static func append(
        _ spans: [DialectSpan], to list: inout [DialectSpan]?, textOffset: Int, argumentOffset: Int
    ) {
        var shifted = list ?? []
        shifted.reserveCapacity(shifted.count + spans.count)
        for span in spans {
            shifted.append(
                DialectSpan(
                    textRange: (span.textRange.lowerBound + textOffset)..<(span.textRange.upperBound + textOffset),
                    argumentRange: (span.argumentRange.lowerBound + argumentOffset)..<(span.argumentRange.upperBound
                        + argumentOffset),
                    postgreSQL: span.postgreSQL))
        }
        list = shifted
    }
}

/// PostgreSQL's version of a construct: its SQL, or why it has none.
@usableFromInline
package indirect enum DialectAlternative: Sendable {
    case sql(SQL)
    case unsupported(String)
}

extension SQL {
    /// SQL that PostgreSQL writes differently: `sqlite` on SQLite (it is this value's ``text``
    /// and arguments), `postgreSQL` on PostgreSQL. Both are written with `?` placeholders.
    ///
    /// ```swift
    /// // `LIMIT -1` means "no limit" to SQLite; PostgreSQL needs no LIMIT at all.
    /// SQL(sqlite: " LIMIT -1 OFFSET 20", postgreSQL: " OFFSET 20")
    /// ```
    public init(sqlite: SQL, postgreSQL: SQL) {
        self.init(sql: sqlite.text, arguments: sqlite.arguments)
        self.buildError = sqlite.buildError
        self.dialectSpans = [
            DialectSpan(
                textRange: 0..<sqlite.text.utf8.count, argumentRange: 0..<sqlite.arguments.positional.count,
                postgreSQL: .sql(postgreSQL))
        ]
    }

    /// SQL that only SQLite understands: on PostgreSQL, rendering it throws an error saying
    /// `reason` (never wrong SQL).
    public init(sqlite: SQL, unsupportedOnPostgreSQL reason: String) {
        self.init(sql: sqlite.text, arguments: sqlite.arguments)
        self.buildError = sqlite.buildError
        self.dialectSpans = [
            DialectSpan(
                textRange: 0..<sqlite.text.utf8.count, argumentRange: 0..<sqlite.arguments.positional.count,
                postgreSQL: .unsupported(reason))
        ]
    }

    /// Whether the text is the same in every dialect but for its placeholders.
    public var isDialectNeutral: Bool { dialectSpans == nil }

    /// The statement written in `dialect`.
    ///
    /// On SQLite: ``text`` and the positional arguments, as they are. On PostgreSQL: every `?`
    /// outside string literals, quoted identifiers and comments becomes `$1`, `$2`, …, and each
    /// construct PostgreSQL writes differently is written its way. SQL that already uses `$1`,
    /// `$2`, … and no `?` is passed through with its arguments, so hand-written PostgreSQL works.
    ///
    /// - Throws: The build error, if any; ``DatabaseError`` with ``ResultCode/misuse`` for a
    ///   construct PostgreSQL has no equivalent for (the message names it), for named or numbered
    ///   (`?NNN`) parameters, and for `?` mixed with `$n`; ``ResultCode/range`` when the number of
    ///   placeholders and of arguments differ.
    public func rendered(for dialect: SQLDialect) throws -> RenderedSQL {
        try checkBuildError()
        switch dialect {
        case .sqlite:
            guard arguments.named.isEmpty else {
                throw DatabaseError(
                    resultCode: .misuse, message: "named parameters cannot be rendered as positional arguments",
                    sql: text)
            }
            return RenderedSQL(text: text, arguments: arguments.positional)
        case .postgreSQL:
            var writer = PostgreSQLWriter()
            try writer.write(self, topLevel: self)
            if writer.sawDollarParameter {
                guard writer.arguments.isEmpty else {
                    throw DatabaseError(
                        resultCode: .misuse, message: "the SQL mixes ? placeholders with $n parameters", sql: text)
                }
                return RenderedSQL(text: writer.text, arguments: arguments.positional)
            }
            return RenderedSQL(text: writer.text, arguments: writer.arguments)
        }
    }
}

/// Writes SQL in PostgreSQL's dialect.
private struct PostgreSQLWriter {
    var output: [UInt8] = []
    var arguments: [(any SQLBindable)?] = []
    var sawDollarParameter = false

    var text: String { String(decoding: output, as: UTF8.self) }

    mutating func write(_ sql: SQL, topLevel: SQL) throws {
        try sql.checkBuildError()
        guard sql.arguments.named.isEmpty else {
            throw DatabaseError(
                resultCode: .misuse,
                message:
                    "named parameters (:name, @name, $name) are SQLite's; PostgreSQL statements take positional ? values",
                sql: topLevel.text)
        }
        let positional = sql.arguments.positional
        var next = 0
        var text = sql.text
        text.makeContiguousUTF8()
        let written: Void? = try text.utf8.withContiguousStorageIfAvailable { bytes in
            var position = 0
            for span in sql.dialectSpans ?? [] {
                try writeSegment(bytes, position..<span.textRange.lowerBound, positional, &next, topLevel)
                guard next == span.argumentRange.lowerBound || sawDollarParameter else {
                    throw wrongCount(topLevel)
                }
                switch span.postgreSQL {
                case .sql(let alternative):
                    try write(alternative, topLevel: topLevel)
                case .unsupported(let reason):
                    let construct = String(
                        decoding: UnsafeBufferPointer(rebasing: bytes[span.textRange]), as: UTF8.self
                    )
                    .trimmingCharacters(in: .whitespaces)
                    throw DatabaseError(
                        resultCode: .misuse,
                        message: "PostgreSQL has no equivalent of `\(construct.truncatedForMessages)`: \(reason)",
                        sql: topLevel.text)
                }
                next = span.argumentRange.upperBound
                position = span.textRange.upperBound
            }
            try writeSegment(bytes, position..<bytes.count, positional, &next, topLevel)
        }
        guard written != nil else {
            throw DatabaseError(
                resultCode: .internal, message: "the SQL text has no contiguous UTF-8 storage", sql: topLevel.text)
        }
        guard next == positional.count || sawDollarParameter else { throw wrongCount(topLevel) }
    }

    func wrongCount(_ sql: SQL) -> DatabaseError {
        DatabaseError(
            resultCode: .range,
            message:
                "wrong number of arguments: the SQL has a different number of ? placeholders than its \(sql.arguments.positional.count) values",
            sql: sql.text)
    }

    /// Copies `range` of `bytes`, numbering `?` placeholders outside literals and comments.
    mutating func writeSegment(
        _ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, _ positional: [(any SQLBindable)?], _ next: inout Int,
        _ topLevel: SQL
    ) throws {
        var index = range.lowerBound
        let end = range.upperBound
        output.reserveCapacity(output.count + range.count + 8)
        /// Copies up to and including the first occurrence of `terminator` at or after `from`.
        func copy(through terminator: [UInt8], from start: Int) -> Int {
            var cursor = start
            while cursor < end {
                if bytes[cursor] == terminator[0], cursor + terminator.count <= end,
                    terminator.indices.allSatisfy({ bytes[cursor + $0] == terminator[$0] })
                {
                    cursor += terminator.count
                    return cursor
                }
                cursor += 1
            }
            return end
        }
        while index < end {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "'"), UInt8(ascii: "\""):
                let stop = copy(through: [byte], from: index + 1)
                output.append(contentsOf: bytes[index..<stop])
                index = stop
            case UInt8(ascii: "-") where index + 1 < end && bytes[index + 1] == UInt8(ascii: "-"):
                let stop = copy(through: [UInt8(ascii: "\n")], from: index + 2)
                output.append(contentsOf: bytes[index..<stop])
                index = stop
            case UInt8(ascii: "/") where index + 1 < end && bytes[index + 1] == UInt8(ascii: "*"):
                let stop = copy(through: Array("*/".utf8), from: index + 2)
                output.append(contentsOf: bytes[index..<stop])
                index = stop
            case UInt8(ascii: "$"):
                // `$1`: a parameter of hand-written PostgreSQL. `$tag$ … $tag$`: a dollar-quoted string.
                var cursor = index + 1
                if cursor < end, isDigit(bytes[cursor]) {
                    sawDollarParameter = true
                    output.append(byte)
                    index += 1
                    continue
                }
                while cursor < end, isIdentifierByte(bytes[cursor]) { cursor += 1 }
                if cursor < end, bytes[cursor] == UInt8(ascii: "$"), index == 0 || !isIdentifierByte(bytes[index - 1]) {
                    let tag = Array(bytes[index...cursor])
                    let stop = copy(through: tag, from: cursor + 1)
                    output.append(contentsOf: bytes[index..<stop])
                    index = stop
                } else {
                    output.append(byte)
                    index += 1
                }
            case UInt8(ascii: "?"):
                if index + 1 < end, isDigit(bytes[index + 1]) {
                    throw DatabaseError(
                        resultCode: .misuse, message: "numbered parameters (?NNN) are SQLite's; use ? on PostgreSQL",
                        sql: topLevel.text)
                }
                guard next < positional.count else { throw wrongCount(topLevel) }
                arguments.append(positional[next])
                next += 1
                output.append(UInt8(ascii: "$"))
                output.append(contentsOf: String(arguments.count).utf8)
                index += 1
            default:
                output.append(byte)
                index += 1
            }
        }
    }

    func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    func isIdentifierByte(_ byte: UInt8) -> Bool {
        isDigit(byte) || (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
            || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z")) || byte == UInt8(ascii: "_") || byte >= 0x80
    }
}
