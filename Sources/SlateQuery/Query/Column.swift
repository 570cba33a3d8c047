import SlateConcurrency
import SlateCore

/// A typed column of table `Root` holding values of type `Value`.
///
/// A column always renders qualified by its table name or alias, `"Person"."name"`, so joins are
/// unambiguous. Columns come from a table's ``TableColumns``, handed to query closures, and know
/// which statement level's table they belong to: in a correlated subquery that names the outer
/// query's table again, the inner table takes an alias (`"Person_2"`) and its columns with it.
///
/// ```swift
/// Person.where { $0.name == "Arthur" && $0.age >= 18 }
/// ```
public struct Column<Root: Table, Value: SQLValueConvertible>: ColumnExpression, Sendable {
    /// The column's value type.
    public typealias QueryValue = Value

    /// The table name or alias that qualifies the column.
    public var qualifier: String { String(SQLScope.name(of: scopedQualifier)) }
    /// The qualifier as the columns were made with: an alias, or the table name and the number of
    /// its statement level (``SQLScope``).
    let scopedQualifier: String
    /// The column name, unquoted.
    public let name: String
    /// How the column stores dates, UUIDs or JSON when not by their own value protocols: values
    /// compared with or assigned to the column are stored the same way.
    public let storage: ColumnStorage?

    /// Creates the column `name` of the table or alias `qualifier`, stored as `storage` says; the
    /// spelling generated code uses.
    public init(_ qualifier: String, _ name: String, storage: ColumnStorage? = nil) {
        self.scopedQualifier = qualifier
        self.name = name
        self.storage = storage
        self.failure = nil
        self.isJoinedOptionally = false
    }

    /// Whether the column belongs to the optional side of a left join, where every column can be
    /// NULL.
    let isJoinedOptionally: Bool

    /// Why the column cannot be used, for a column that could not be resolved (a key path of a
    /// Codable record that matches no column): statements that use it throw this error.
    let failure: ColumnFailure?

    /// A column that cannot be used: statements that use it throw `failure`.
    package init(_ qualifier: String, _ name: String, failure: DatabaseError) {
        self.scopedQualifier = qualifier
        self.name = name
        self.storage = nil
        self.failure = ColumnFailure(error: failure)
        self.isJoinedOptionally = false
    }

    /// The same column, with an optional value type: as a left join's optional side has it.
    init<Wrapped>(nullable column: Column<Root, Wrapped>) where Value == Wrapped? {
        self.scopedQualifier = column.scopedQualifier
        self.name = column.name
        self.storage = column.storage
        self.failure = column.failure
        self.isJoinedOptionally = true
    }

    /// The column's storage.
    public var valueStorage: ColumnStorage? { storage }

    /// `"qualifier"."name"`, or `"name"` when the qualifier is empty.
    public var queryFragment: SQL {
        let column = SQLSegment.column(qualifier: scopedQualifier, name: name)
        if let failure { return SQL(segments: [column, .failure(failure.error)]) }
        return SQL(column)
    }

    /// Columns are atomic.
    public var queryPrecedence: SQLPrecedence { .atomic }
}

extension Column: NullabilityKnowing {
    /// Whether the column can be NULL in a statement: its value type is optional, and its schema
    /// allows NULL (it is neither `NOT NULL` nor part of the primary key), or it is on the optional
    /// side of a left join.
    var canBeNull: Bool {
        guard Value.self is any OptionalQueryValue.Type else { return false }
        if isJoinedOptionally { return true }
        guard let column = Root.schema.columns.first(where: { $0.name.equalsIdentifier(name) }) else { return true }
        return !column.isNotNull && !column.isPrimaryKey
    }
}

/// An expression that knows better than its value type whether it can be NULL.
protocol NullabilityKnowing {
    var canBeNull: Bool { get }
}

extension Column: CustomStringConvertible {
    /// The qualified, quoted column name.
    public var description: String { queryFragment.text }
}

/// An expression that is a table column, with its unqualified name: what an `ON CONFLICT` target
/// lists.
public protocol ColumnExpression: QueryExpression {
    /// The column name, unquoted.
    var name: String { get }
}

/// Why a column cannot be used, boxed to keep ``Column`` small.
final class ColumnFailure: Sendable {
    let error: DatabaseError

    init(error: DatabaseError) {
        self.error = error
    }
}
