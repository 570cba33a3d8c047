import SlateConcurrency
import SlateCore

/// One way a table differs from the schema it is expected to have: what migrations plan from, what
/// drift checks report.
///
/// ```swift
/// for difference in expected.differences(from: actual) {
///     print(difference)   // column Track.Composer: expected nullable, found NOT NULL
/// }
/// ```
public struct SchemaDifference: Sendable, Hashable, Codable, CustomStringConvertible {
    /// What differs.
    public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
        /// The table is missing.
        case missingTable
        /// A table exists that is not expected.
        case extraTable
        /// The table is a view or a virtual table where another kind is expected.
        case tableKind
        /// A column is missing.
        case missingColumn
        /// A column exists that is not expected.
        case extraColumn
        /// A column's type has another affinity.
        case affinity
        /// A column's declared type differs, with the same affinity.
        case declaredType
        /// A column accepts `NULL` where it should not, or the reverse.
        case nullability
        /// A column's `DEFAULT` differs.
        case defaultValue
        /// The primary key differs (which columns, or their order).
        case primaryKey
        /// A column's `UNIQUE` constraint, or a multi-column one, differs.
        case unique
        /// A column's collation differs.
        case collation
        /// A column is generated where it should not be, or the reverse.
        case generated
        /// `AUTOINCREMENT` differs.
        case autoIncrement
        /// A foreign key differs.
        case foreignKey
        /// An index is missing, extra, or differs.
        case index
        /// `WITHOUT ROWID` differs.
        case withoutRowID
        /// `STRICT` differs.
        case strict
        /// A view is missing.
        case missingView
        /// A view exists that is not expected.
        case extraView
        /// A view's query differs (its result columns are compared like a table's).
        case viewDefinition
        /// A trigger is missing.
        case missingTrigger
        /// A trigger exists that is not expected.
        case extraTrigger
        /// A trigger's definition differs.
        case triggerDefinition
    }

    /// What differs.
    public var kind: Kind
    /// The table.
    public var table: String
    /// The column, index or constraint concerned, when there is one.
    public var name: String?
    /// What the expected schema says, in words or SQL (`"INTEGER"`, `"NOT NULL"`), when relevant.
    public var expected: String?
    /// What the actual schema says, when relevant.
    public var actual: String?

    /// Creates a difference.
    public init(_ kind: Kind, table: String, name: String? = nil, expected: String? = nil, actual: String? = nil) {
        self.kind = kind
        self.table = table
        self.name = name
        self.expected = expected
        self.actual = actual
    }

    /// One line for people: `column Track.Composer: nullability expected nullable, found NOT NULL`.
    public var description: String {
        let name = self.name ?? ""
        switch kind {
        case .missingTable:
            return "table \(table) is missing"
        case .extraTable:
            return "table \(table) is not expected"
        case .missingColumn:
            return "column \(table).\(name) is missing" + (expected.map { " (expected \($0))" } ?? "")
        case .extraColumn:
            return "column \(table).\(name) is not expected" + (actual.map { " (found \($0))" } ?? "")
        case .missingView:
            return "view \(table) is missing"
        case .extraView:
            return "view \(table) is not expected"
        case .viewDefinition:
            return "view \(table): its query differs"
        case .missingTrigger:
            return "trigger \(name) on \(table) is missing"
        case .extraTrigger:
            return "trigger \(name) on \(table) is not expected"
        case .triggerDefinition:
            return "trigger \(name) on \(table): its definition differs"
        default:
            break
        }
        let isTableLevel =
            [.tableKind, .withoutRowID, .strict, .primaryKey].contains(kind)
            || [.foreignKey, .index].contains(kind) || (kind == .unique && name.hasPrefix("("))
        if isTableLevel && !self.name.isNilOrEmpty && (expected == nil || actual == nil) {
            let what = kind == .index ? "index" : kind == .foreignKey ? "foreign key" : "unique constraint"
            if expected == nil {
                return "\(what) \(name) of \(table) is not expected" + (actual.map { ": \($0)" } ?? "")
            }
            return "\(what) \(name) of \(table) is missing" + (expected.map { ": \($0)" } ?? "")
        }
        let subject = isTableLevel ? "table \(table)" + (name.isEmpty ? "" : " \(name)") : "column \(table).\(name)"
        return "\(subject): \(kind.label) expected \(expected ?? "none"), found \(actual ?? "none")"
    }
}

extension Optional where Wrapped == String {
    fileprivate var isNilOrEmpty: Bool { self?.isEmpty ?? true }
}

extension SchemaDifference.Kind {
    var label: String {
        switch self {
        case .affinity: "type affinity"
        case .declaredType: "declared type"
        case .nullability: "nullability"
        case .defaultValue: "default"
        case .primaryKey: "primary key"
        case .unique: "uniqueness"
        case .collation: "collation"
        case .generated: "generation"
        case .autoIncrement: "AUTOINCREMENT"
        case .foreignKey: "foreign key"
        case .index: "index"
        case .withoutRowID: "WITHOUT ROWID"
        case .strict: "STRICT"
        case .tableKind: "kind"
        case .viewDefinition: "query"
        case .triggerDefinition: "definition"
        default: rawValue
        }
    }
}

extension TableSchema {
    /// How `actual` differs from this schema, the expected one; empty when they agree.
    ///
    /// Tables, columns, indexes and collations are matched as SQLite matches identifiers (ASCII
    /// case-insensitively); declared types are compared without regard to case and spacing;
    /// defaults without enclosing parentheses. Foreign keys that reference the parent's primary
    /// key without naming it are equal to those that name it when `primaryKey(of:)` knows the
    /// parent's key.
    ///
    /// - Parameters:
    ///   - actual: The schema found, typically read with `Database.tableSchema(named:)`.
    ///   - primaryKey: The primary key columns of a referenced table, to compare foreign keys;
    ///     `nil` when unknown.
    public func differences(from actual: TableSchema, primaryKey: (String) -> [String]? = { _ in nil })
        -> [SchemaDifference]
    {
        var differences: [SchemaDifference] = []
        func add(_ kind: SchemaDifference.Kind, _ name: String? = nil, _ expected: String?, _ actual: String?) {
            differences.append(SchemaDifference(kind, table: self.name, name: name, expected: expected, actual: actual))
        }
        if !kind.matches(actual.kind) {
            let (expected, found) = kind.descriptions(against: actual.kind)
            add(.tableKind, nil, expected, found)
        }
        if isWithoutRowID != actual.isWithoutRowID {
            add(
                .withoutRowID, nil, isWithoutRowID ? "WITHOUT ROWID" : "rowid table",
                actual.isWithoutRowID ? "WITHOUT ROWID" : "rowid table")
        }
        if isStrict != actual.isStrict {
            add(.strict, nil, isStrict ? "STRICT" : "not STRICT", actual.isStrict ? "STRICT" : "not STRICT")
        }

        for column in columns {
            guard let found = actual.column(named: column.name) else {
                add(.missingColumn, column.name, column.summary, nil)
                continue
            }
            if column.affinity != found.affinity {
                add(.affinity, column.name, column.declaredTypeText, found.declaredTypeText)
            } else if SchemaText.type(column.declaredType) != SchemaText.type(found.declaredType) {
                add(.declaredType, column.name, column.declaredTypeText, found.declaredTypeText)
            }
            if !column.isRowIDAlias && !found.isRowIDAlias && column.isNotNull != found.isNotNull {
                add(
                    .nullability, column.name, column.isNotNull ? "NOT NULL" : "nullable",
                    found.isNotNull ? "NOT NULL" : "nullable")
            }
            if SchemaText.defaultValue(column.defaultSQL) != SchemaText.defaultValue(found.defaultSQL) {
                add(.defaultValue, column.name, column.defaultSQL, found.defaultSQL)
            }
            if column.isUnique != found.isUnique {
                add(
                    .unique, column.name, column.isUnique ? "UNIQUE" : "not UNIQUE",
                    found.isUnique ? "UNIQUE" : "not UNIQUE")
            }
            if (column.collation ?? "BINARY").uppercased() != (found.collation ?? "BINARY").uppercased() {
                add(.collation, column.name, column.collation ?? "BINARY", found.collation ?? "BINARY")
            }
            if column.generation != found.generation {
                add(.generated, column.name, column.generation.rawValue, found.generation.rawValue)
            }
            if column.isAutoIncrement != found.isAutoIncrement {
                add(
                    .autoIncrement, column.name, column.isAutoIncrement ? "AUTOINCREMENT" : "none",
                    found.isAutoIncrement ? "AUTOINCREMENT" : "none")
            }
        }
        for found in actual.columns where column(named: found.name) == nil && !found.isHidden {
            add(.extraColumn, found.name, nil, found.summary)
        }

        let expectedKey = self.primaryKey.map { $0.lowercased() }
        let actualKey = actual.primaryKey.map { $0.lowercased() }
        if expectedKey != actualKey {
            add(
                .primaryKey, nil, self.primaryKey.isEmpty ? "none" : self.primaryKey.joined(separator: ", "),
                actual.primaryKey.isEmpty ? "none" : actual.primaryKey.joined(separator: ", "))
        }

        let expectedUnique = Set(uniqueConstraints.map { $0.map { $0.lowercased() } })
        let actualUnique = Set(actual.uniqueConstraints.map { $0.map { $0.lowercased() } })
        for missing in expectedUnique.subtracting(actualUnique).sorted(by: { $0.lexicographicallyPrecedes($1) }) {
            add(.unique, "(" + missing.joined(separator: ", ") + ")", "UNIQUE", nil)
        }
        for extra in actualUnique.subtracting(expectedUnique).sorted(by: { $0.lexicographicallyPrecedes($1) }) {
            add(.unique, "(" + extra.joined(separator: ", ") + ")", nil, "UNIQUE")
        }

        let expectedKeys = foreignKeys.map { $0.signature(primaryKey: primaryKey) }
        let actualKeys = actual.foreignKeys.map { $0.signature(primaryKey: primaryKey) }
        for (key, signature) in zip(foreignKeys, expectedKeys) where !actualKeys.contains(signature) {
            add(.foreignKey, "(" + key.columns.joined(separator: ", ") + ")", key.summary, nil)
        }
        for (key, signature) in zip(actual.foreignKeys, actualKeys) where !expectedKeys.contains(signature) {
            add(.foreignKey, "(" + key.columns.joined(separator: ", ") + ")", nil, key.summary)
        }

        for index in indexes {
            guard let found = actual.indexes.first(where: { $0.name.equalsIdentifier(index.name) }) else {
                add(.index, index.name, index.summary, nil)
                continue
            }
            if index.signature != found.signature { add(.index, index.name, index.summary, found.summary) }
        }
        for found in actual.indexes where !indexes.contains(where: { $0.name.equalsIdentifier(found.name) }) {
            add(.index, found.name, nil, found.summary)
        }
        return differences
    }
}

extension TableSchema.Kind: CustomStringConvertible {
    /// `table`, `view`, or `virtual table (module)`.
    public var description: String {
        switch self {
        case .table: "table"
        case .view: "view"
        case .virtual(let module, _): "virtual table (\(module))"
        }
    }
}

extension TableSchema.Column {
    var declaredTypeText: String { declaredType.isEmpty ? "no type" : declaredType }

    /// `INTEGER NOT NULL DEFAULT 0`, for reports.
    var summary: String {
        var text = declaredTypeText
        if isNotNull { text += " NOT NULL" }
        if let defaultSQL { text += " DEFAULT " + defaultSQL }
        return text
    }
}

extension TableSchema.ForeignKey {
    /// The key in comparable form: names lowercased, unnamed referenced columns resolved.
    func signature(primaryKey: (String) -> [String]?) -> String {
        let referenced = referencedColumns.isEmpty ? (primaryKey(referencedTable) ?? []) : referencedColumns
        return [
            columns.joined(separator: ","), referencedTable, referenced.joined(separator: ","), onDelete.rawValue,
            onUpdate.rawValue,
        ].joined(separator: "|").lowercased()
    }

    var summary: String {
        "(" + columns.joined(separator: ", ") + ") REFERENCES " + referencedTable
            + (referencedColumns.isEmpty ? "" : " (" + referencedColumns.joined(separator: ", ") + ")")
            + (onDelete == .noAction ? "" : " ON DELETE " + onDelete.rawValue)
            + (onUpdate == .noAction ? "" : " ON UPDATE " + onUpdate.rawValue)
    }
}

extension TableSchema.Index {
    var signature: String {
        (columns.map { $0.lowercased() }.joined(separator: ",") + "|" + String(isUnique) + "|"
            + (condition.map(SchemaText.condition) ?? (isPartial ? "partial" : ""))).lowercased()
    }

    var summary: String {
        (isUnique ? "UNIQUE " : "") + "(" + columns.map { $0.isEmpty ? "<expression>" : $0 }.joined(separator: ", ")
            + ")"
            + (condition.map { " WHERE " + $0 } ?? (isPartial ? " WHERE …" : ""))
    }
}

/// Normalization of schema text for comparisons.
package enum SchemaText {
    /// A declared type, uppercased with single spaces and no space inside parentheses. Only ASCII
    /// letters are folded and only ASCII white space separates, as in SQLite's tokenizer.
    package static func type(_ text: String) -> String {
        var result: [UInt8] = []
        result.reserveCapacity(text.utf8.count)
        var pendingSpace = false
        for var byte in text.utf8 {
            if byte == 0x20 || (0x09...0x0D).contains(byte) {
                pendingSpace = true
                continue
            }
            if byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z") { byte -= 0x20 }
            if pendingSpace, let last = result.last,
                ![UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: ",")].contains(byte),
                last != UInt8(ascii: "("), last != UInt8(ascii: ",")
            {
                result.append(0x20)
            }
            pendingSpace = false
            result.append(byte)
        }
        return String(decoding: result, as: UTF8.self)
    }

    /// A default expression without enclosing parentheses, in ``canonical(_:)`` form; `NULL`
    /// is no default.
    package static func defaultValue(_ text: String?) -> String? {
        guard var text = text.map(canonical) else { return nil }
        while text.hasPrefix("( "), text.hasSuffix(" )"), DefaultExpression.isParenthesized(text) {
            text = String(text.dropFirst(2).dropLast(2))
        }
        if text.isEmpty || text == "null" { return nil }
        return text
    }

    /// A condition in ``canonical(_:)`` form.
    static func condition(_ text: String) -> String {
        canonical(text)
    }
}
