/// SQLite's renderings: `?` placeholders, SQLite's precedence, and SQLite's spelling of each
/// construct of the builder — the SQL the builder always wrote.
package enum SQLiteRendering: SQLDialectRendering {
    package static var dialect: SQLDialect { .sqlite }

    /// SQLite's order is ``SQLPrecedence/rawValue``.
    @inlinable
    package static func level(of precedence: SQLPrecedence) -> Int { precedence.rawValue }

    @inlinable
    package static func writeBinding(_ value: (any SQLBindable)?, to writer: inout SQLWriter<Self>) {
        writer.appendPlaceholder(value)
    }

    /// Hand-written text goes as it is; SQLite numbers its placeholders.
    @inlinable
    package static func writeRaw(_ text: String, values: [(any SQLBindable)?], to writer: inout SQLWriter<Self>) {
        writer.text += text
        writer.arguments += values
    }

    package static func writeAlternatives(
        sqlite: SQL, postgreSQL: DialectAlternative, to writer: inout SQLWriter<Self>
    ) throws {
        try writer.write(sqlite)
    }

    package static func finish(_ writer: inout SQLWriter<Self>) {}

    package static func write(_ construct: SQLConstruct, to writer: inout SQLWriter<Self>) throws {
        switch construct {
        case .limit(let limit, let offset):
            if let limit {
                writer.text += " LIMIT "
                writer.appendPlaceholder(limit)
                if let offset {
                    writer.text += " OFFSET "
                    writer.appendPlaceholder(offset)
                }
            } else if let offset {
                // SQLite has no OFFSET without LIMIT; a negative limit is none.
                writer.text += " LIMIT -1 OFFSET "
                writer.appendPlaceholder(offset)
            }
        case .ordering(let expression, let descending, let nullsFirst, _):
            try writer.write(expression)
            switch descending {
            case true?: writer.text += " DESC"
            case false?: writer.text += " ASC"
            case nil: break
            }
            switch nullsFirst {
            case true?: writer.text += " NULLS FIRST"
            case false?: writer.text += " NULLS LAST"
            case nil: break
            }
        case .compoundOrdering(let term):
            // SQLite matches the term with a result column, qualified or not.
            try writer.write(term)
        case .rowsOnlySelection(let selection):
            try writer.write(selection)
        case .derivedTable(let subquery, _):
            writer.text += "("
            try writer.write(subquery)
            writer.text += ")"
        case .conflictResolution(let verb, let resolution, _):
            writer.text += verb.rawValue + " OR " + resolution + (verb == .insert ? " INTO " : " ")
        case .ignoredConflicts:
            break
        case .conflictTarget(let columns, _):
            writer.text += " ON CONFLICT"
            writeColumnList(columns, to: &writer)
        case .emptyList(let negated):
            writer.text += negated ? " NOT IN ()" : " IN ()"
        case .nullSafeEquality(let negated):
            writer.text += negated ? " IS NOT " : " IS "
        case .like(let pattern, let negated, let escape):
            writer.text += negated ? " NOT LIKE " : " LIKE "
            writer.appendPlaceholder(pattern)
            if let escape {
                writer.text += " ESCAPE "
                writer.appendPlaceholder(String(escape))
            }
        case .glob(let pattern):
            writer.text += " GLOB "
            writer.appendPlaceholder(pattern)
        case .literalMatch(let literal, let position):
            writer.text += " GLOB "
            let escaped = globEscaped(literal)
            switch position {
            case .prefix: writer.appendPlaceholder(escaped + "*")
            case .suffix: writer.appendPlaceholder("*" + escaped)
            case .anywhere: writer.appendPlaceholder("*" + escaped + "*")
            }
        case .collate(let name):
            writer.text += " COLLATE "
            writer.text.appendQuotedIdentifier(name)
        case .uuidTextCollation:
            writer.text += " COLLATE NOCASE"
        case .division(let lhs, let rhs, let remainder):
            try writer.write(.operand(lhs))
            writer.text += remainder ? " % " : " / "
            try writer.write(.operand(rhs))
        case .aggregate(let aggregate):
            try writeCall(aggregate.function.rawValue, aggregate, to: &writer)
        case .round(let value, let places):
            writer.text += "round("
            try writer.write(value)
            writer.text += ", "
            writer.appendPlaceholder(places)
            writer.text += ")"
        case .cast(let value, let type, _):
            writer.text += "CAST("
            try writer.write(value)
            writer.text += " AS " + type + ")"
        case .substring(let text, let start, let length):
            writer.text += "substr("
            try writer.write(text)
            writer.text += ", "
            writer.appendPlaceholder(start)
            if let length {
                writer.text += ", "
                writer.appendPlaceholder(length)
            }
            writer.text += ")"
        case .position(let substring, let text):
            writer.text += "instr("
            try writer.write(text)
            writer.text += ", "
            writer.appendPlaceholder(substring)
            writer.text += ")"
        case .integerArgument(let value):
            writer.appendPlaceholder(value)
        case .sqliteOnly(let sql, _):
            try writer.write(sql)
        }
    }

    /// `name([DISTINCT ]arguments[, ?]) [OVER (…)]`.
    private static func writeCall(_ name: String, _ aggregate: SQLAggregate, to writer: inout SQLWriter<Self>) throws {
        writer.text += name + (aggregate.distinct ? "(DISTINCT " : "(")
        if aggregate.arguments.isEmpty { writer.text += "*" }
        for (index, argument) in aggregate.arguments.enumerated() {
            if index > 0 { writer.text += ", " }
            try writer.write(argument)
        }
        if let separator = aggregate.separator {
            writer.text += ", "
            writer.appendPlaceholder(separator)
        }
        writer.text += ")"
        if let window = aggregate.window {
            writer.text += " OVER "
            try writer.write(window)
        }
    }

    /// ` ("a", "b")`, or nothing for no column.
    static func writeColumnList<R>(_ columns: [String], to writer: inout SQLWriter<R>) {
        guard !columns.isEmpty else { return }
        writer.text += " ("
        for (index, column) in columns.enumerated() {
            if index > 0 { writer.text += ", " }
            writer.text.appendQuotedIdentifier(column)
        }
        writer.text += ")"
    }

    /// `text` as a GLOB pattern matching only itself: `*`, `?` and `[` become one-character sets.
    /// (`]` is literal outside a set.)
    static func globEscaped(_ text: String) -> String {
        var pattern = ""
        pattern.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "*": pattern += "[*]"
            case "?": pattern += "[?]"
            case "[": pattern += "[[]"
            default: pattern.append(character)
            }
        }
        return pattern
    }
}
