/// PostgreSQL's renderings: `$n` placeholders (equal values share one), PostgreSQL's precedence,
/// and its spelling of each construct of the builder, chosen to give the rows SQLite gives — or a
/// refusal, before anything runs, where it has no equivalent. Each choice has a row in the DocC
/// article *PostgreSQL* ("What differs").
package enum PostgreSQLRendering: SQLDialectRendering {
    package static var dialect: SQLDialect { .postgreSQL }

    /// PostgreSQL's order (its manual's "Operator Precedence"): unary minus, `COLLATE`, `* / %`,
    /// `+ -`, other operators (`||`, `->>`), `BETWEEN IN LIKE`, then `< > = <= >= <>` at one
    /// non-associative level, `IS`, `NOT`, `AND`, `OR`. A level of unknown kind is parenthesized.
    package static func level(of precedence: SQLPrecedence) -> Int {
        switch precedence.kind {
        case .lowest: 0
        case .or: 10
        case .and: 20
        case .not: 30
        case .nullTest: 40
        case .equality, .comparison, .emptyMembership: 45
        case .membership: 50
        case .concatenation: 55
        case .additive: 60
        case .multiplicative: 70
        case .collate: 90
        case .prefix: 95
        case .atomic: 100
        case .custom: precedence.rawValue >= SQLPrecedence.atomic.rawValue ? 100 : 0
        }
    }

    /// `$n`: a value equal to an earlier one (same Swift type, same stored value, not NULL) takes
    /// its number, so that an expression with a bound value is the same expression wherever it is
    /// written (in `SELECT` and in `GROUP BY`).
    package static func writeBinding(_ value: (any SQLBindable)?, to writer: inout SQLWriter<Self>) {
        writer.sawPlaceholder = true
        writer.text += "$" + String(number(of: value, &writer))
    }

    /// The placeholder number of `value`: an earlier equal value's, or the next one.
    private static func number(of value: (any SQLBindable)?, _ writer: inout SQLWriter<Self>) -> Int {
        if let value, let stored = try? value.sqlValue, stored != .null {
            let type = ObjectIdentifier(Swift.type(of: value))
            if let earlier = writer.numberedValues.first(where: { $0.type == type && $0.value == stored }) {
                return earlier.number
            }
            writer.arguments.append(value)
            writer.numberedValues.append((type, stored, writer.arguments.count))
            return writer.arguments.count
        }
        writer.arguments.append(value)
        return writer.arguments.count
    }

    /// Hand-written text: each `?` outside literals, quoted identifiers and comments takes the
    /// next value of the hand-written text (`numberPlaceholders`).
    package static func writeRaw(_ text: String, values: [(any SQLBindable)?], to writer: inout SQLWriter<Self>) throws
    {
        writer.rawValues += values
        try numberPlaceholders(in: text, &writer)
    }

    package static func writeAlternatives(
        sqlite: SQL, postgreSQL: DialectAlternative, to writer: inout SQLWriter<Self>
    ) throws {
        switch postgreSQL {
        case .sql(let alternative): try writer.write(alternative)
        case .unsupported(let reason):
            throw writer.refusal(of: .alternatives(sqlite: sqlite, postgreSQL: postgreSQL), reason)
        }
    }

    package static func finish(_ writer: inout SQLWriter<Self>) throws {
        guard writer.statement.namedArguments.isEmpty else {
            throw refused(
                .misuse,
                "named parameters (:name, @name, $name) are SQLite's; PostgreSQL statements take positional ? values",
                writer)
        }
        if writer.sawNumberedParameter {
            // Hand-written PostgreSQL: its `$n` parameters take its values as they are.
            guard !writer.sawPlaceholder else {
                throw refused(.misuse, "the SQL mixes ? placeholders with $n parameters", writer)
            }
            writer.arguments = writer.rawValues
            return
        }
        guard writer.rawValuesTaken == writer.rawValues.count else { throw wrongCount(writer) }
    }

    static func wrongCount(_ writer: SQLWriter<Self>) -> DatabaseError {
        refused(
            .range,
            "wrong number of arguments: the SQL has a different number of ? placeholders than its \(writer.rawValues.count) values",
            writer)
    }

    /// An error of the statement's PostgreSQL text, found before anything runs.
    static func refused(_ code: ResultCode, _ message: String, _ writer: SQLWriter<Self>) -> DatabaseError {
        var error = DatabaseError(resultCode: code, message: message, sql: writer.statement.text)
        error.refusingDialect = .postgreSQL
        return error
    }

    // MARK: Constructs

    package static func write(_ construct: SQLConstruct, to writer: inout SQLWriter<Self>) throws {
        switch construct {
        case .limit(let limit, let offset):
            // SQLite reads a negative limit as none and a negative offset as 0; PostgreSQL refuses
            // both (2201W, 2201X), and takes an OFFSET without a LIMIT.
            if let limit, limit >= 0 {
                writer.text += " LIMIT "
                writeBinding(limit, to: &writer)
            }
            if let offset, offset >= 0 {
                writer.text += " OFFSET "
                writeBinding(offset, to: &writer)
            }
        case .ordering(let expression, let descending, let nullsFirst, let nullable):
            // SQLite sorts NULL before every value; PostgreSQL after: say where they go, for an
            // expression that can be NULL (a term that cannot keeps the plain form, which a
            // PostgreSQL index serves).
            try writer.write(expression)
            switch descending {
            case true?: writer.text += " DESC"
            case false?: writer.text += " ASC"
            case nil: break
            }
            if nullable || nullsFirst != nil {
                writer.text += (nullsFirst ?? (descending != true)) ? " NULLS FIRST" : " NULLS LAST"
            }
        case .compoundOrdering(let term):
            // PostgreSQL sorts a compound by its result columns' names, never a table's columns.
            let qualifies = writer.qualifiesColumns
            writer.qualifiesColumns = false
            defer { writer.qualifiesColumns = qualifies }
            try writer.write(term)
        case .rowsOnlySelection:
            // A grouped query may select only grouped columns and aggregates on PostgreSQL.
            writer.text += "1"
        case .derivedTable(let subquery, let alias):
            writer.text += "("
            try writer.write(subquery)
            writer.text += ") AS "
            writer.text.appendQuotedIdentifier(alias)
        case .conflictResolution(let verb, let resolution, let selecting):
            switch (resolution, verb, selecting) {
            case ("ABORT", _, _), ("IGNORE", .insert, false):
                // PostgreSQL's own behaviour; an ignored conflict ends with ON CONFLICT DO NOTHING.
                writer.text += verb == .insert ? "INSERT INTO " : "UPDATE "
            case ("IGNORE", .insert, true):
                throw writer.refusal(
                    of: .construct(construct),
                    "write INSERT … SELECT … ON CONFLICT DO NOTHING in raw SQL")
            case ("REPLACE", _, _):
                throw writer.refusal(
                    of: .construct(construct), "use an upsert (onConflict(_:doUpdate:) or Table.upsert(_:)) instead")
            default:
                throw writer.refusal(
                    of: .construct(construct), "PostgreSQL undoes the failing statement and aborts the transaction")
            }
        case .ignoredConflicts(let withUpsert):
            guard !withUpsert else {
                throw writer.refusal(of: .construct(construct), "INSERT OR IGNORE with an ON CONFLICT clause")
            }
            writer.text += " ON CONFLICT DO NOTHING"
        case .conflictTarget(let columns, let updating):
            if columns.isEmpty && updating {
                throw writer.refusal(
                    of: .construct(construct),
                    "ON CONFLICT DO UPDATE needs the conflict's columns there: name them, or give the table a primary key"
                )
            }
            writer.text += " ON CONFLICT"
            SQLiteRendering.writeColumnList(columns, to: &writer)
        case .emptyList(let negated):
            writer.text += negated ? " <> ALL('{}')" : " = ANY('{}')"
        case .nullSafeEquality(let negated):
            writer.text += negated ? " IS DISTINCT FROM " : " IS NOT DISTINCT FROM "
        case .like(let pattern, let negated, let escape):
            // SQLite's LIKE ignores the case of ASCII letters and escapes with nothing by default.
            writer.text += negated ? " NOT ILIKE " : " ILIKE "
            writeBinding(pattern, to: &writer)
            writer.text += " ESCAPE "
            if let escape { writeBinding(String(escape), to: &writer) } else { writer.text += "''" }
        case .glob:
            throw writer.refusal(
                of: .construct(construct), "use like(_:escape:), hasPrefix(_:), hasSuffix(_:) or contains(_:)")
        case .literalMatch(let literal, let position):
            writer.text += " LIKE "
            let escaped = likeEscaped(literal)
            switch position {
            case .prefix: writeBinding(escaped + "%", to: &writer)
            case .suffix: writeBinding("%" + escaped, to: &writer)
            case .anywhere: writeBinding("%" + escaped + "%", to: &writer)
            }
            writer.text += " ESCAPE '\\'"
        case .collate(let name):
            switch name.uppercased() {
            case "BINARY": writer.text += " COLLATE \"C\""
            case "NOCASE", "RTRIM":
                throw writer.refusal(
                    of: .construct(construct),
                    "PostgreSQL has no such collation; compare lower() values or use like()")
            default:
                writer.text += " COLLATE "
                writer.text.appendQuotedIdentifier(name)
            }
        case .uuidTextCollation:
            // PostgreSQL's `uuid` type compares values, whatever their letters' case.
            break
        case .division(let lhs, let rhs, let remainder):
            // SQLite divides by zero into NULL; PostgreSQL fails (22012) unless the divisor is NULL.
            try writer.write(.operand(lhs))
            writer.text += remainder ? " % NULLIF(" : " / NULLIF("
            try writer.write(rhs.sql)
            writer.text += ", 0)"
        case .aggregate(let aggregate):
            try writeAggregate(aggregate, to: &writer)
        case .round(let value, let places):
            // `round(numeric, integer)`; SQLite rounds to a whole number for negative places.
            writer.text += "CAST(round(CAST("
            try writer.write(value)
            writer.text += " AS numeric), " + String(max(places, 0)) + ") AS double precision)"
        case .cast(let value, let type, let source):
            try writeCast(construct, value, to: type, from: source, &writer)
        case .substring(let text, let start, let length):
            guard start >= 0, (length ?? 0) >= 0 else {
                throw writer.refusal(
                    of: .construct(construct),
                    "PostgreSQL's substr does not count a negative start from the end or take a negative length")
            }
            writer.text += "substr("
            try writer.write(text)
            writer.text += ", "
            writeInteger(start, &writer)
            if let length {
                writer.text += ", "
                writeInteger(length, &writer)
            }
            writer.text += ")"
        case .position(let substring, let text):
            writer.text += "strpos("
            try writer.write(text)
            writer.text += ", "
            writeBinding(substring, to: &writer)
            writer.text += ")"
        case .integerArgument(let value):
            writeInteger(value, &writer)
        case .sqliteOnly(_, let feature):
            throw writer.refusal(of: .construct(construct), reason(feature))
        }
    }

    /// `CAST($n AS integer)`: PostgreSQL's `ntile`, `lag`, `substr`, … take an `integer`, where
    /// Slate binds an `int8`.
    private static func writeInteger(_ value: Int, _ writer: inout SQLWriter<Self>) {
        writer.text += "CAST("
        writeBinding(value, to: &writer)
        writer.text += " AS integer)"
    }

    /// Aggregates, typed as on SQLite: `total` and `avg` as `double precision`, `group_concat` as
    /// `string_agg` of text.
    private static func writeAggregate(_ aggregate: SQLAggregate, to writer: inout SQLWriter<Self>) throws {
        func call(_ name: String, cast: String? = nil) throws {
            writer.text += name + (aggregate.distinct ? "(DISTINCT " : "(")
            if aggregate.arguments.isEmpty { writer.text += "*" }
            for (index, argument) in aggregate.arguments.enumerated() {
                if index > 0 { writer.text += ", " }
                if cast != nil { writer.text += "CAST(" }
                try writer.write(argument)
                if let cast { writer.text += " AS " + cast + ")" }
            }
            if aggregate.function == .groupConcat {
                writer.text += ", "
                writeBinding(aggregate.separator ?? ",", to: &writer)
            }
            writer.text += ")"
            if let window = aggregate.window {
                writer.text += " OVER "
                try writer.write(window)
            }
        }
        switch aggregate.function {
        case .count, .min, .max, .sum:
            try call(aggregate.function.rawValue)
        case .total:
            writer.text += "CAST(coalesce("
            try call("sum")
            writer.text += ", 0) AS double precision)"
        case .avg:
            writer.text += "CAST("
            try call("avg")
            writer.text += " AS double precision)"
        case .groupConcat:
            try call("string_agg", cast: "text")
        }
    }

    /// A cast where PostgreSQL's gives the value SQLite's gives: from an integer to `bigint`,
    /// `double precision` or `text`; from text to `text`; from a `Double` to `double precision`,
    /// or to `bigint` truncated toward zero first (PostgreSQL rounds). Others throw.
    private static func writeCast(
        _ construct: SQLConstruct, _ value: SQL, to type: String, from source: SQLValueKind,
        _ writer: inout SQLWriter<Self>
    ) throws {
        let target: String
        var truncates = false
        switch (type, source) {
        case ("INTEGER", .integer): target = "bigint"
        case ("INTEGER", .real):
            target = "bigint"
            truncates = true
        case ("REAL", .integer), ("REAL", .real): target = "double precision"
        case ("TEXT", .integer), ("TEXT", .text): target = "text"
        default:
            throw writer.refusal(
                of: .construct(construct),
                "PostgreSQL's CAST gives another value or an error here (only integers and Doubles cast alike, text only to text, and not a Double to text)"
            )
        }
        writer.text += truncates ? "CAST(trunc(" : "CAST("
        try writer.write(value)
        writer.text += (truncates ? ")" : "") + " AS " + target + ")"
    }

    /// Why PostgreSQL refuses one of SQLite's own features.
    private static func reason(_ feature: SQLiteOnlyFeature) -> String {
        switch feature {
        case .fullTextSearch:
            "FTS5 full-text search is SQLite's; PostgreSQL's full-text search (tsvector, tsquery, ts_rank) ranks and parses queries differently"
        case .jsonPathValue: "PostgreSQL's ->> takes a key or an index, not a JSON path, and returns text"
        case .jsonExtract:
            "PostgreSQL reads JSON paths with jsonb_path_query_first, which returns jsonb, not an SQL value"
        case .jsonArrayLength:
            "PostgreSQL's json_array_length fails on a JSON value that is not an array, where SQLite's returns 0"
        case .jsonEach:
            "PostgreSQL's json_each takes only objects and has other columns (key, value); use jsonb_array_elements in raw SQL"
        case .jsonGroupArray:
            "PostgreSQL's json_agg returns NULL, not [], for no rows, and writes booleans and numbers differently"
        case .jsonGroupArrayOfJSON: "PostgreSQL's json_agg returns NULL, not [], for no rows"
        case .jsonObject:
            "PostgreSQL's json_build_object writes booleans and numbers differently from SQLite's json_object"
        case .dateFunctions:
            "SQLite's date and time functions read dates as Slate stores them in SQLite; on PostgreSQL use its date functions (date_trunc, to_char, extract) in raw SQL"
        case .substringFromEnd:
            "PostgreSQL's substr does not count a negative start from the end or take a negative length"
        }
    }

    /// `text` as a LIKE pattern (escaped with `\`) matching only itself.
    static func likeEscaped(_ text: String) -> String {
        var pattern = ""
        pattern.reserveCapacity(text.utf8.count)
        for character in text {
            if character == "%" || character == "_" || character == "\\" { pattern.append("\\") }
            pattern.append(character)
        }
        return pattern
    }

    // MARK: Hand-written text

    /// Copies hand-written SQL text, numbering its `?` placeholders as SlateCore's lexer reads them
    /// (`SQLLexer`: outside string literals, quoted names and comments); `$1` parameters pass
    /// through. A dollar-quoted string (`$$ … $$`, `$tag$ … $tag$`, PostgreSQL's own) is copied
    /// whole.
    private static func numberPlaceholders(in text: String, _ writer: inout SQLWriter<Self>) throws {
        var lexer = SQLLexer(text, includingTrivia: true)
        let bytes = lexer.bytes
        var copied = 0
        func copy(upTo end: Int) {
            if copied < end { writer.text += String(decoding: bytes[copied..<end], as: UTF8.self) }
            copied = end
        }
        while let token = lexer.next() {
            guard bytes[token.start] == UInt8(ascii: "?") || bytes[token.start] == UInt8(ascii: "$") else { continue }
            if bytes[token.start] == UInt8(ascii: "$") {
                if let end = dollarQuoteEnd(bytes, from: token.start) {
                    lexer = SQLLexer(bytes: bytes, from: end, includingTrivia: true)
                } else if token.kind == .parameter, token.end - token.start > 1,
                    bytes[(token.start + 1)..<token.end].allSatisfy({ $0 >= 0x30 && $0 <= 0x39 })
                {
                    // `$1`: a parameter of hand-written PostgreSQL.
                    writer.sawNumberedParameter = true
                }
                continue
            }
            guard token.kind == .parameter else { continue }
            guard token.end - token.start == 1 else {
                throw refused(.misuse, "numbered parameters (?NNN) are SQLite's; use ? on PostgreSQL", writer)
            }
            guard writer.rawValuesTaken < writer.rawValues.count else { throw wrongCount(writer) }
            copy(upTo: token.start)
            copied = token.end
            let value = writer.rawValues[writer.rawValuesTaken]
            writer.rawValuesTaken += 1
            writeBinding(value, to: &writer)
        }
        copy(upTo: bytes.count)
    }

    /// The end of the dollar-quoted string starting at `start` (`$tag$ … $tag$`), or `nil` when
    /// none starts there.
    private static func dollarQuoteEnd(_ bytes: [UInt8], from start: Int) -> Int? {
        func isTagByte(_ byte: UInt8) -> Bool {
            (byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "z")) || byte == UInt8(ascii: "_")
                || byte >= 0x80 || (byte >= 0x30 && byte <= 0x39)
        }
        if start > 0, isTagByte(bytes[start - 1]) { return nil }
        var cursor = start + 1
        if cursor < bytes.count, bytes[cursor] >= 0x30 && bytes[cursor] <= 0x39 { return nil }  // `$1`
        while cursor < bytes.count, isTagByte(bytes[cursor]) { cursor += 1 }
        guard cursor < bytes.count, bytes[cursor] == UInt8(ascii: "$") else { return nil }
        let tag = bytes[start...cursor]
        var search = cursor + 1
        while search + tag.count <= bytes.count {
            if bytes[search..<(search + tag.count)].elementsEqual(tag) { return search + tag.count }
            search += 1
        }
        return bytes.count
    }
}
