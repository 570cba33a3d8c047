import SlateConcurrency
import SlateCore

/// The typed columns of a ``Table``: a struct with one ``Column`` property per column.
///
/// Query closures receive it, so `$0.name` is a `Column<Person, String>` and comparing it with an
/// `Int` does not compile:
///
/// ```swift
/// struct Columns: TableColumns {
///     let id: Column<Person, Int64?>
///     let name: Column<Person, String>
///     init(qualifier: String) {
///         id = Column(qualifier, "id")
///         name = Column(qualifier, "name")
///     }
/// }
/// ```
public protocol TableColumns: Sendable {
    /// Creates the columns, qualified by `qualifier`: the table name, or an alias when the table
    /// appears under another name in a query.
    init(qualifier: String)
}
