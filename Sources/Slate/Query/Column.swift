/// A typed column of table `Root` holding values of type `Value`.
///
/// A column always renders qualified by its table name or alias, `"Person"."name"`, so joins are
/// unambiguous and the SQL is the same whatever the query. Columns come from a table's
/// ``TableColumns``, handed to query closures:
///
/// ```swift
/// Person.where { $0.name == "Arthur" && $0.age >= 18 }
/// ```
public struct Column<Root: Table, Value: SQLValueConvertible>: ColumnExpression, Sendable {
    /// The column's value type.
    public typealias QueryValue = Value

    /// The table name or alias that qualifies the column.
    public let qualifier: String
    /// The column name, unquoted.
    public let name: String

    /// Creates the column `name` of the table or alias `qualifier`; the spelling generated code
    /// uses.
    public init(_ qualifier: String, _ name: String) {
        self.qualifier = qualifier
        self.name = name
    }

    /// `"qualifier"."name"`, or `"name"` when the qualifier is empty.
    public var queryFragment: SQL {
        SQL(sql: qualifier.isEmpty ? name.quotedIdentifier : qualifier.quotedIdentifier + "." + name.quotedIdentifier)
    }

    /// Columns are atomic.
    public var queryPrecedence: SQLPrecedence { .atomic }
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
