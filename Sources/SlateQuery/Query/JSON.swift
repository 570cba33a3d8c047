import SlateConcurrency
import SlateCore

// SQLite's JSON functions, typed: values read from a JSON column at a path (`->>`,
// `json_extract`), `json_each` as a table source, and the `json_group_array` / `json_object`
// aggregates. Paths, keys and values are bound, never spliced.

/// The value types of expressions holding JSON text: `String`, `JSONEncoded<T>` (a column stored
/// as JSON) and their optionals. The JSON accessors require it.
public protocol JSONQueryValue {}

extension String: JSONQueryValue {}
extension JSONEncoded: JSONQueryValue {}
extension Optional: JSONQueryValue where Wrapped: JSONQueryValue {}

extension QueryExpression where QueryValue: JSONQueryValue {
    /// `expression ->> ?`: the SQL value at `path` (`"$.address.city"`, `"$.tags[0]"`), read as
    /// `type`; `NULL` when the path is missing or holds `null`, so the result is optional.
    ///
    /// ```swift
    /// Customer.where { $0.profile.json("$.address.city", as: String.self) == "Oslo" }
    /// ```
    ///
    /// A JSON object or array at the path comes back as its JSON text.
    public func json<Value: SQLExtractable>(_ path: String, as type: Value.Type) -> SQLExpression<Value.SQLNullable> {
        sqliteOnly(infix(self, " ->> ", SQLExpression<String>(value: path), precedence: .concatenation), .jsonPathValue)
    }

    /// `json_extract(expression, ?)`: the value at `path`, read as `type`, `NULL` when missing.
    /// The same as ``json(_:as:)`` for scalar values.
    public func jsonExtract<Value: SQLExtractable>(_ path: String, as type: Value.Type) -> SQLExpression<
        Value.SQLNullable
    > {
        sqliteOnly(functionCall("json_extract", [queryFragment, SQL(.binding(path))]), .jsonExtract)
    }

    /// `json_array_length(expression)`: the number of elements of the JSON array, `0` for another
    /// JSON value, `NULL` for `NULL`.
    public func jsonArrayLength() -> SQLExpression<Int64?> {
        sqliteOnly(functionCall("json_array_length", [queryFragment]), .jsonArrayLength)
    }
}

// MARK: - json_each

/// A row of `json_each(…)`: one element of a JSON array, or one member of a JSON object, with the
/// element's value read as `Value`. A table source like any table: filter it, select from it,
/// use it in `EXISTS` or `IN`.
///
/// ```swift
/// // The posts tagged "swift", where `tags` holds a JSON array of strings:
/// Post.where { post in exists(JSONEach<String>.of(post.tags).where { $0.value == "swift" }) }
/// // Rows whose key is one of many, with the keys bound as one JSON array:
/// Track.where { $0.trackId.in(JSONEach<Int64>.of(array: ids).select { $0.value }) }
/// ```
public struct JSONEach<Value: SQLValueConvertible & Sendable>: Table {
    /// The member's key (text) for an object, its index (integer) for an array.
    public var key: SQLValue
    /// The element's value: for an array or object, its JSON text.
    public var value: Value
    /// The JSON type: `"null"`, `"true"`, `"false"`, `"integer"`, `"real"`, `"text"`, `"array"`,
    /// `"object"`.
    public var type: String
    /// The element's path from the root, such as `"$[2]"` or `"$.name"`.
    public var fullKey: String

    /// The table-valued function's result columns, as a table named `json_each`.
    public static var schema: TableSchema {
        TableSchema(
            name: "json_each", kind: .virtual(module: "json_each", arguments: ""),
            columns: [.init(name: "key"), .init(name: "value"), .init(name: "type"), .init(name: "fullkey")])
    }

    /// The typed columns.
    public struct Columns: TableColumns {
        /// The member's key or the element's index.
        public let key: Column<JSONEach, SQLValue>
        /// The element's value.
        public let value: Column<JSONEach, Value>
        /// The element's JSON type.
        public let type: Column<JSONEach, String>
        /// The element's path from the root.
        public let fullKey: Column<JSONEach, String>

        /// The columns, qualified by `qualifier`.
        public init(qualifier: String) {
            key = Column(qualifier, "key")
            value = Column(qualifier, "value")
            type = Column(qualifier, "type")
            fullKey = Column(qualifier, "fullkey")
        }
    }

    /// Decodes a row.
    public init(row: borrowing Row) throws {
        key = try row.decode(at: 0)
        value = try row.decode(at: 1)
        type = try row.decode(at: 2)
        fullKey = try row.decode(at: 3)
    }

    /// Hands out the row's values.
    public func encode<Encoder: ColumnEncoder>(to encoder: inout Encoder) throws(Encoder.Failure) {
        try encoder.encode(key)
        try encoder.encode(value)
        try encoder.encode(type)
        try encoder.encode(fullKey)
    }

    /// The elements of the JSON that `json` holds (a JSON column, or any expression):
    /// `SELECT … FROM json_each(json)`.
    public static func of(_ json: some QueryExpression) -> Select<JSONEach> {
        from(json.queryFragment)
    }

    /// The elements of a Swift array, encoded as one JSON array and bound as one value:
    /// `SELECT … FROM json_each(?)`.
    public static func of<Element: Encodable>(array: [Element]) -> Select<JSONEach> {
        do {
            return from(SQL(.binding(try JSONCoding.encode(array))))
        } catch let error as DatabaseError {
            return from(SQL(sql: "NULL", failing: error))
        } catch {
            return from(SQL(sql: "NULL", failing: DatabaseError(resultCode: .mismatch, message: "\(error)")))
        }
    }

    /// `SELECT <columns> FROM json_each(argument) [AS "alias"]`.
    static func from(_ argument: SQL) -> Select<JSONEach> {
        var select = Select<JSONEach>()
        let qualifier = select.qualifier
        let call = sqlConcat(SQL(text: "json_each("), argument, SQL(text: ")"))
        let source = SQL(.construct(.sqliteOnly(call, .jsonEach)))
        select.clauses = SelectClauses(
            selection: SelectClauses.columnList(of: JSONEach.self, qualifier: qualifier),
            from: SQL(.table(name: schema.name, qualifier: qualifier, source: source)), level: select.level,
            qualifiers: [qualifier])
        return select
    }
}

// MARK: - Aggregates and constructors

extension QueryExpression where QueryValue: Codable {
    /// `json_group_array(expression)`: the group's values as one JSON array (`[]` for no row),
    /// decoded as a Swift array.
    ///
    /// ```swift
    /// let names: [[String]] = try Track.group(by: \.albumId).select { $0.name.jsonGroupArray() }.fetchAll(db).map(\.value)
    /// ```
    public func jsonGroupArray() -> SQLExpression<JSONEncoded<[QueryValue]>> {
        sqliteOnly(functionCall("json_group_array", [queryFragment]), .jsonGroupArray)
    }
}

extension QueryExpression {
    /// `json_group_array(json(expression))`, for JSON values such as ``jsonObject(as:_:)``
    /// results or JSON columns: an array of them, decoded as a Swift array.
    public func jsonGroupArray<Element>() -> SQLExpression<JSONEncoded<[Element]>>
    where QueryValue == JSONEncoded<Element> {
        let json: SQLExpression<String> = functionCall("json", [queryFragment])
        return sqliteOnly(functionCall("json_group_array", [json.queryFragment]), .jsonGroupArrayOfJSON)
    }
}

/// `json_object(?, value, ?, value, …)`: a JSON object of the given keys (bound) and values,
/// decoded as `type` when fetched.
///
/// ```swift
/// struct Summary: Codable { var id: Int64; var name: String? }
/// Artist.select { jsonObject(as: Summary.self, ["id": $0.artistId, "name": $0.name]) }
/// Artist.select { jsonObject(as: Summary.self, ["id": $0.artistId, "name": $0.name]).jsonGroupArray() }
/// ```
public func jsonObject<Object: Codable>(
    as type: Object.Type, _ members: KeyValuePairs<String, any QueryExpression>
) -> SQLExpression<JSONEncoded<Object>> {
    var arguments: [SQL] = []
    for (key, value) in members {
        arguments.append(SQL(.binding(key)))
        arguments.append(value.queryFragment)
    }
    return sqliteOnly(functionCall("json_object", arguments), .jsonObject)
}
