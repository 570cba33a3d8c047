import SlateConcurrency
import SlateCore

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
    /// How the column stores dates, UUIDs or JSON when not by their own value protocols: values
    /// compared with or assigned to the column are stored the same way.
    public let storage: ColumnStorage?

    /// Creates the column `name` of the table or alias `qualifier`, stored as `storage` says; the
    /// spelling generated code uses.
    public init(_ qualifier: String, _ name: String, storage: ColumnStorage? = nil) {
        self.qualifier = qualifier
        self.name = name
        self.storage = storage
        self.failure = nil
    }

    /// Why the column cannot be used, for a column that could not be resolved (a key path of a
    /// Codable record that matches no column): statements that use it throw this error.
    let failure: ColumnFailure?

    /// A column that cannot be used: statements that use it throw `failure`.
    package init(_ qualifier: String, _ name: String, failure: DatabaseError) {
        self.qualifier = qualifier
        self.name = name
        self.storage = nil
        self.failure = ColumnFailure(error: failure)
    }

    /// The same column, with an optional value type: as a left join's optional side has it.
    init<Wrapped>(nullable column: Column<Root, Wrapped>) where Value == Wrapped? {
        self.qualifier = column.qualifier
        self.name = column.name
        self.storage = column.storage
        self.failure = column.failure
    }

    /// The column's storage.
    public var valueStorage: ColumnStorage? { storage }

    /// `"qualifier"."name"`, or `"name"` when the qualifier is empty.
    public var queryFragment: SQL {
        let text = qualifier.isEmpty ? name.quotedIdentifier : qualifier.quotedIdentifier + "." + name.quotedIdentifier
        if let failure { return SQL(sql: text, failing: failure.error) }
        return SQL(sql: text)
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

/// Why a column cannot be used, boxed to keep ``Column`` small.
final class ColumnFailure: Sendable {
    let error: DatabaseError

    init(error: DatabaseError) {
        self.error = error
    }
}
