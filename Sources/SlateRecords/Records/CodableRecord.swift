import Foundation
import SlateConcurrency
import SlateCore
import SlateQuery

/// A `Codable` struct stored as the rows of a table, with no other code: a ``Table`` whose schema
/// Slate infers from the type's `Codable` shape, and whose values it decodes and encodes by column
/// name. Its table is created when first written, and follows the type as it gains columns.
///
/// ```swift
/// struct Bookmark: CodableRecord {
///     var id: Int64?                 // INTEGER PRIMARY KEY: nil until inserted, then the new rowid
///     var title: String
///     var url: URL
///     var tags: [String]             // nested values are stored as JSON text
/// }
///
/// var bookmark = try db.insert(Bookmark(id: nil, title: "Swift", url: swiftURL, tags: ["lang"]))
/// let found = try Bookmark.where { $0.title == "Swift" }.fetchAll(db)     // typed, like any Table
/// let tagged = try Bookmark.where(sql: "EXISTS (SELECT 1 FROM json_each(tags) WHERE value = \("lang"))").fetchAll(db)
/// ```
///
/// Query closures receive the record's key paths as typed columns (`$0.title` is a
/// `Column<Bookmark, String>`), so a misspelled property does not compile. Raw SQL filters remain
/// for what the builder does not express.
///
/// The path through `Codable` is convenient but slower than the `@Table` macro's positional code.
/// Column types are inferred by decoding the type once with a probing decoder: see <doc:CodeFirst>.
/// Every requirement has a default.
public protocol CodableRecord: SelfManagingTable, PrimaryKeyedTable, Codable where Columns == RecordColumns<Self> {
    /// The table name. Default: the type name.
    static var tableName: String { get }

    /// The primary key's column names, in key order. Default: `["id"]` when the type has an `id`
    /// column, else none (the table keeps its hidden rowid).
    static var primaryKeyColumns: [String] { get }

    /// The former name of ``primaryKeyColumns``. Do not implement it: a type that still declares
    /// `static let primaryKey = [...]` has every statement throw ``ResultCode/misuse`` saying to
    /// rename it, where the declaration used to be ignored in silence. Default: `[]`.
    static var primaryKey: [String] { get }

    /// Column names for coding keys that are stored under another name: `["createdAt":
    /// "created_at"]`. Default: none, every key is its column's name.
    static var columnNames: [String: String] { get }

    /// `DEFAULT` expressions (SQL text) for columns: `["score": "0"]`. A non-optional property
    /// added to a type whose table has rows needs one. Default: none.
    static var columnDefaults: [String: String] { get }

    /// Indexes to create with the table. Default: none.
    static var indexes: [TableSchema.Index] { get }

    /// The columns, declared by hand, for types whose shape cannot be inferred (see <doc:CodeFirst>).
    /// Default: `nil`, inferred from the `Codable` implementation.
    static var declaredColumns: [TableSchema.Column]? { get }
}

extension CodableRecord {
    /// The type name.
    public static var tableName: String { String(describing: Self.self) }

    /// `["id"]`, used only when the type has an `id` column.
    public static var primaryKeyColumns: [String] { ["id"] }

    /// `[]`: not declared (see the requirement).
    public static var primaryKey: [String] { [] }

    /// No renamed keys.
    public static var columnNames: [String: String] { [:] }

    /// No defaults.
    public static var columnDefaults: [String: String] { [:] }

    /// No indexes.
    public static var indexes: [TableSchema.Index] { [] }

    /// Inferred columns.
    public static var declaredColumns: [TableSchema.Column]? { nil }

    /// The column name of a coding key.
    static func columnName(forKey key: String) -> String {
        columnNames[key] ?? key
    }
}

// MARK: - Table conformance

extension CodableRecord {
    /// The schema inferred from the type's `Codable` shape (once per type). A type whose shape
    /// cannot be inferred has a schema without columns, and every statement on it throws the
    /// reason.
    public static var schema: TableSchema {
        CodableSchemaCache.shared.entry(for: Self.self).schema
    }

    /// Decodes the record by column name, with the decoder cached on the statement (so each
    /// statement's rows follow one key order).
    public init(row: borrowing Row) throws {
        self = try row.decodeWithCachedDecoder(Self.self, columnNames: Self.columnNames) {
            try CodableSchemaCache.shared.entry(for: Self.self).check()
        }
    }

    /// Hands out the record's columns, encoded by name through `Encodable`. A value that cannot be
    /// encoded is handed out as an argument that throws the encoding error when it is bound.
    public func encode<Encoder: ColumnEncoder>(to encoder: inout Encoder) throws(Encoder.Failure) {
        let columns = Self.schema.recordColumns
        let encoded: EncodedRow
        do {
            encoded = try RowEncoder(columnNames: Self.columnNames).encode(self)
        } catch {
            let failure = ArgumentFailure(error: error)
            for _ in columns { try encoder.encode(failure) }
            return
        }
        for column in columns {
            try encodeExistential(encoded[column.name], to: &encoder)
        }
    }

    /// Binds the record's columns straight into the statement's parameters, by column name, with
    /// the binder cached on the statement.
    public func bindColumns(to statement: Statement, startingAt index: Int) throws {
        let binder = try Self.binder(for: statement, startingAt: index)
        // The statement keeps the binder, and the caller keeps the statement for this call.
        try binder._withUnsafeGuaranteedRef { try $0.bind(self) }
    }

    /// Binds each record through the statement's binder, found once.
    public static func bindEach(
        of records: UnsafeBufferPointer<Self>, to statement: Statement, startingAt index: Int,
        _ body: (_ position: Int) throws -> Void
    ) throws {
        let binder = try binder(for: statement, startingAt: index)
        // The statement keeps the binder, and the caller keeps the statement for this call.
        guard let first = records.baseAddress else { return }
        try binder._withUnsafeGuaranteedRef { binder in
            for position in 0..<records.count {
                statement.resetQuietly()
                // Through the pointer, the record is encoded where it is (a subscript of the
                // buffer would copy it first).
                try binder.bind((first + position).pointee)
                try body(position)
            }
        }
    }

    /// The binder attached to `statement` for this type, made the first time.
    private static func binder(for statement: Statement, startingAt index: Int) throws -> Unmanaged<RecordBinder> {
        try statement.recordBinder(for: Self.self, startingAt: index) {
            let entry = CodableSchemaCache.shared.entry(for: Self.self)
            try entry.check()
            return try RecordBinder(
                statement: statement, columns: entry.schema.recordColumns.map(\.name), columnNames: Self.columnNames,
                firstIndex: index)
        }
    }

    /// Stores the new rowid in the record's `INTEGER PRIMARY KEY` property, when it has one and it
    /// was `NULL`: the record is encoded, given the rowid, and decoded again.
    ///
    /// - Throws: The decoding error when the property cannot hold the rowid (a `UInt8` key and
    ///   rowid 300): the row is inserted, and the error says why the record could not learn its key.
    public mutating func didInsert(rowID: Int64) throws {
        let entry = CodableSchemaCache.shared.entry(for: Self.self)
        guard let alias = entry.rowIDAlias else { return }
        let encoded = try RowEncoder(columnNames: Self.columnNames).encode(self)
        guard isNullArgument(encoded[alias]) else { return }
        let columns = entry.schema.recordColumns
        var values: [SQLValue] = []
        for column in columns {
            if column.name == alias {
                values.append(.integer(rowID))
            } else {
                values.append(try encoded[column.name]?.sqlValue ?? .null)
            }
        }
        let row = CopiedRow(columnNames: columns.map(\.name), values: values)
        self = try RowDecoder(columnNames: Self.columnNames).decode(Self.self, from: row)
    }

    /// Creates or migrates the table before a statement writes to it (once per connection and
    /// schema change); a read never does.
    public static func prepareForWriting(_ db: Database) throws {
        try checkSchema()
        try db.prepareTable(schema, renamedColumns: renamedColumns)
    }

    /// Why the columns of the type could not be inferred, when they could not: every statement,
    /// `createTable(for:)`, `prepareTable(for:)`, migration and `verifySchema(of:)` throws it first.
    public static var schemaError: DatabaseError? {
        CodableSchemaCache.shared.entry(for: Self.self).inferenceError
    }

    /// The values of the record's primary key columns.
    /// A value that cannot be encoded is a key value whose binding throws the encoding error.
    public var primaryKey: CodableRecordKey {
        let keys = CodableSchemaCache.shared.entry(for: Self.self).primaryKey
        guard !keys.isEmpty else { return CodableRecordKey(values: []) }
        do {
            let encoded = try RowEncoder(columnNames: Self.columnNames).encode(self)
            return CodableRecordKey(values: keys.map { encoded[$0] })
        } catch {
            return CodableRecordKey(values: keys.map { _ in ArgumentFailure(error: error) })
        }
    }

    /// Hands out the key's values.
    public static func encode<Encoder: ColumnEncoder>(primaryKey key: CodableRecordKey, to encoder: inout Encoder)
        throws(Encoder.Failure)
    {
        for value in key.values { try encodeExistential(value, to: &encoder) }
    }
}

/// Hands out a boxed value (`NULL` for `nil`).
func encodeExistential<Encoder: ColumnEncoder>(_ value: (any SQLBindable)?, to encoder: inout Encoder) throws(Encoder
    .Failure)
{
    guard let value else { return try encoder.encode(SQLValue.null) }
    func open<Value: SQLBindable>(_ value: Value) throws(Encoder.Failure) { try encoder.encode(value) }
    try open(value)
}

/// A value that could not be encoded: binding it throws the encoding error, so a statement that
/// uses it fails instead of storing a wrong value.
struct ArgumentFailure: SQLBindable {
    let message: String

    init(error: any Error) {
        self.message = "a value could not be encoded: \(error)".truncatedForMessages
    }

    var sqlValue: SQLValue { get throws { throw DatabaseError(resultCode: .mismatch, message: message) } }

    func bind(to statement: Statement, at index: Int) throws {
        throw DatabaseError(resultCode: .mismatch, message: message, sql: statement.sql)
    }
}

/// The primary key of a ``CodableRecord``: the values of its key columns, in key order.
///
/// Literals make one for a single-column key: `Bookmark.find(3)`, `Tag.find("swift")`; other
/// values and composite keys spell it out: `CodableRecordKey(userID, 2)`.
public struct CodableRecordKey: Sendable, ExpressibleByIntegerLiteral, ExpressibleByStringLiteral {
    /// The values, in key order; `nil` for `NULL`.
    public var values: [(any SQLBindable)?]

    /// A key made of `values`, in key order.
    public init(values: [(any SQLBindable)?]) {
        self.values = values
    }

    /// A key made of `values`, in key order.
    public init(_ values: any SQLBindable...) {
        self.values = values
    }

    /// A single integer key.
    public init(integerLiteral value: Int64) {
        self.values = [value]
    }

    /// A single text key.
    public init(stringLiteral value: String) {
        self.values = [value]
    }
}

// MARK: - Typed columns from key paths

/// The typed columns of a ``CodableRecord``: each stored property, by key path.
///
/// ```swift
/// Bookmark.where { $0.title == "Swift" && $0.id > 3 }   // $0.title: Column<Bookmark, String>
/// ```
///
/// A key path is matched with its column once per type, by decoding the type with one changed
/// value per column and seeing which property changes. A property whose values cannot be told
/// apart that way (an enum with a single case, a type that rejects the values Slate tries) makes
/// the statement that uses it throw, naming the key path.
@dynamicMemberLookup
public struct RecordColumns<Record: CodableRecord>: TableColumns {
    /// The table name or alias that qualifies the columns.
    public let qualifier: String

    /// The columns, qualified by `qualifier`.
    public init(qualifier: String) {
        self.qualifier = qualifier
    }

    /// The column holding the property at `keyPath`.
    public subscript<Value: SQLValueConvertible>(dynamicMember keyPath: KeyPath<Record, Value>) -> Column<Record, Value>
    {
        switch CodableSchemaCache.shared.entry(for: Record.self).columnName(for: keyPath) {
        case .success(let name):
            return Column(qualifier, name)
        case .failure(let error):
            return Column(qualifier, "", failure: error)
        }
    }
}
