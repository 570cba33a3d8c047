import SlateConcurrency
import SlateCore

/// A struct stored as several columns of its parent table: a column group.
///
/// The parent's schema lists the group's columns where the group's property is, its
/// `init(row:)` reads the group from its first column on, its `encode(to:)` hands out the group's
/// values, and its typed columns hold the group's typed columns, so predicates reach into it:
///
/// ```swift
/// struct Address: ColumnGroup {
///     var street: String
///     var city: String
///
///     static let groupColumns: [TableSchema.Column] = [
///         .init(name: "street", type: "TEXT", isNotNull: true),
///         .init(name: "city", type: "TEXT", isNotNull: true),
///     ]
///     struct Columns<Root: Table>: Sendable {
///         let street: Column<Root, String>
///         let city: Column<Root, String>
///         init(qualifier: String) {
///             street = Column(qualifier, "street")
///             city = Column(qualifier, "city")
///         }
///     }
///     init(row: borrowing Row, startingAt index: Int) throws {
///         street = try row.decode(at: index)
///         city = try row.decode(at: index + 1)
///     }
///     func encode<Encoder: ColumnEncoder>(to encoder: inout Encoder) throws(Encoder.Failure) {
///         try encoder.encode(street)
///         try encoder.encode(city)
///     }
/// }
/// // In the parent: columns [..., ] + Address.groupColumns, `let address: Address.Columns<Shop>`,
/// // `address = try Address(row: row, startingAt: 2)`, `try address.encode(to: &encoder)`.
/// Shop.where { $0.address.city == "Oslo" }
/// ```
///
/// With the macro: `@ColumnGroup struct Address { … }`, and `@Group var address: Address` in the
/// `@Table` struct.
public protocol ColumnGroup: Sendable {
    /// The group's columns, in order, as the parent table stores them.
    static var groupColumns: [TableSchema.Column] { get }

    /// Reads the group from `row`'s columns `index`, `index + 1`, … in ``groupColumns`` order.
    init(row: borrowing Row, startingAt index: Int) throws

    /// Hands out the group's values, one per column of ``groupColumns``, in order.
    func encode<Encoder: ColumnEncoder>(to encoder: inout Encoder) throws(Encoder.Failure)
}
