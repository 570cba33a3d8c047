/// Receives a record's column values, one after the other, in column order.
///
/// A record hands out its values by calling ``encode(_:)`` once per column; what happens to each
/// value is the encoder's business. ``StatementBinder`` binds them straight into a prepared
/// statement (the fast path of inserts and updates); ``ArgumentCollector`` keeps them, to print a
/// statement or build a predicate; another database's driver can map them to its own types.
///
/// ```swift
/// func encode<Encoder: ColumnEncoder>(to encoder: inout Encoder) throws(Encoder.Failure) {
///     try encoder.encode(id)
///     try encoder.encode(name)
/// }
/// ```
///
/// Values with their own storage say so with a wrapper: `EncodedDate(date, strategy:
/// .unixSeconds)`, `JSONEncoded(tags)`, a ``SQLValue`` from `UUIDStorage.blob.sqlValue(for:)`.
public protocol ColumnEncoder {
    /// What encoding a value can throw: `Never` for encoders that only collect.
    associatedtype Failure: Error

    /// Receives the next column's value.
    mutating func encode<Value: SQLBindable>(_ value: Value) throws(Failure)
}

/// Binds each value to the next parameter of a statement: the encoder of the SQLite write path.
public struct StatementBinder: ColumnEncoder {
    /// The statement whose parameters receive the values.
    public let statement: Statement
    /// The 1-based parameter the next value binds to.
    public var nextIndex: Int

    /// A binder starting at parameter `index` (1-based) of `statement`.
    @inlinable
    public init(statement: Statement, startingAt index: Int = 1) {
        self.statement = statement
        self.nextIndex = index
    }

    /// Binds `value` to the next parameter.
    @inlinable
    public mutating func encode<Value: SQLBindable>(_ value: Value) throws(any Error) {
        try value.bind(to: statement, at: nextIndex)
        nextIndex += 1
    }
}

/// Keeps each value as a bound argument, unencoded: dates and other values whose storage depends
/// on the connection are encoded when the statement runs, by that connection's rules.
public struct ArgumentCollector: ColumnEncoder {
    /// The values, in column order.
    public var values: [any SQLBindable] = []

    /// An empty collector.
    public init() {}

    /// Keeps `value`.
    public mutating func encode<Value: SQLBindable>(_ value: Value) {
        values.append(value)
    }
}
