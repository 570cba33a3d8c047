import CSQLite
import Foundation

// Custom SQL functions: scalar functions backed by a Swift closure, and aggregate functions backed
// by a type conforming to `AggregateFunction`.
//
// Each registration hands SQLite a retained Swift object as the function's user data, together
// with a destructor that releases it. SQLite calls the destructor when the function is replaced,
// removed, or the connection closes, and also when registration fails.

// MARK: - Arguments

/// The arguments of one call of a custom SQL function.
///
/// Read them boxed with ``value(at:)`` or decoded into a Swift type with ``decode(_:at:)`` or the
/// subscript:
///
/// ```swift
/// try db.createFunction("repeat_text", argumentCount: 2, deterministic: true) { arguments in
///     let text: String = try arguments[0]
///     let count = try arguments.decode(Int.self, at: 1)
///     return String(repeating: text, count: max(0, count))
/// }
/// ```
///
/// The arguments read SQLite's values in place: they are only valid during the call that received
/// them. Do not keep them; copy the values you need.
public struct FunctionArguments {
    /// The `sqlite3_value **` array SQLite passed to the callback.
    private let arguments: UnsafeMutablePointer<OpaquePointer?>?
    /// The number of arguments of this call.
    public let count: Int
    /// The name the function was registered under, for error messages.
    let functionName: String
    /// How `Date` arguments are read: the connection's strategy.
    let dateStrategy: DateStrategy

    init(
        count: Int32, arguments: UnsafeMutablePointer<OpaquePointer?>?, functionName: String, dateStrategy: DateStrategy
    ) {
        self.arguments = arguments
        self.count = arguments == nil ? 0 : max(0, Int(count))
        self.functionName = functionName
        self.dateStrategy = dateStrategy
    }

    /// Whether the call has no arguments.
    public var isEmpty: Bool { count == 0 }

    /// The raw `sqlite3_value *` of argument `index` (0-based), for calling the C API directly,
    /// or `nil` when `index` is out of range. Valid only during the call.
    public func handle(at index: Int) -> OpaquePointer? {
        guard index >= 0, index < count, let arguments else { return nil }
        return arguments[index]
    }

    /// The boxed value of argument `index` (0-based); `.null` when `index` is out of range.
    public func value(at index: Int) -> SQLValue {
        guard let value = handle(at: index) else { return .null }
        return Self.readValue(value)
    }

    /// Every argument, boxed, in order.
    public var values: [SQLValue] {
        (0..<count).map { value(at: $0) }
    }

    /// Whether argument `index` (0-based) is SQL `NULL` (or does not exist).
    public func isNull(at index: Int) -> Bool {
        guard let value = handle(at: index) else { return true }
        return sqlite3_value_type(value) == SQLITE_NULL
    }

    /// Reads argument `index` (0-based) as `Value`: `let name: String = try arguments[0]`.
    public subscript<Value: SQLExtractable>(_ index: Int) -> Value {
        get throws { try decode(Value.self, at: index) }
    }

    /// Reads argument `index` (0-based) as `type`.
    ///
    /// Conversions follow the same strict rules as reading a column: `NULL` into a non-optional
    /// type, or a value that does not fit the type, throws. Dates are read with the connection's
    /// ``Database/Configuration/dateStrategy``.
    ///
    /// - Throws: ``DatabaseError`` with ``ResultCode/range`` when `index` is out of range, and
    ///   ``ResultCode/mismatch`` when the value cannot be converted. Thrown out of the function,
    ///   either error fails the statement with its message.
    public func decode<Value: SQLExtractable>(_ type: Value.Type = Value.self, at index: Int) throws -> Value {
        guard index >= 0, index < count else {
            throw DatabaseError(
                resultCode: .range,
                message: "\(functionName)() has no argument \(index): it was called with \(count) argument(s)")
        }
        let value = value(at: index)
        do {
            if !value.isNull, Value.self == Date.self || Value.self == Date?.self {
                guard let date = dateStrategy.date(from: value) else {
                    throw DatabaseError.conversionFailure(value, to: Date.self)
                }
                if let date = date as? Value { return date }
            }
            return try Value(sqlValue: value)
        } catch var error as DatabaseError {
            error.message = "argument \(index) of \(functionName)(): \(error.message)"
            throw error
        }
    }

    /// Reads one `sqlite3_value` into its boxed form.
    package static func readValue(_ value: OpaquePointer) -> SQLValue {
        switch sqlite3_value_type(value) {
        case SQLITE_INTEGER:
            return .integer(sqlite3_value_int64(value))
        case SQLITE_FLOAT:
            return .real(sqlite3_value_double(value))
        case SQLITE_TEXT:
            // sqlite3_value_text first, then sqlite3_value_bytes: the length of the UTF-8 form.
            guard let text = sqlite3_value_text(value) else { return .text("") }
            let count = Int(sqlite3_value_bytes(value))
            return .text(bytes: text, count: count)
        case SQLITE_BLOB:
            let bytes = sqlite3_value_blob(value)
            let count = Int(sqlite3_value_bytes(value))
            guard let bytes, count > 0 else { return .blob(Data()) }
            return .blob(Data(bytes: bytes, count: count))
        default:
            return .null
        }
    }
}

// MARK: - Aggregates

/// A custom SQL aggregate function, such as a median or a string concatenation.
///
/// SQLite creates one value per group with ``init()``, calls ``step(_:)`` for every row of the
/// group, then ``finalize()`` once for the result. An aggregate over no rows gets a fresh value
/// and ``finalize()`` only.
///
/// ```swift
/// struct Product: AggregateFunction {
///     var product: Int64 = 1
///     init() {}
///     mutating func step(_ arguments: FunctionArguments) throws {
///         if let factor = try arguments.decode(Int64?.self, at: 0) { product *= factor }
///     }
///     func finalize() throws -> (any SQLBindable)? { product }
/// }
/// try db.createAggregate("product", argumentCount: 1, deterministic: true, Product.self)
/// let product = try db.fetchValue(Int.self, "SELECT product(quantity) FROM item")
/// ```
///
/// An error thrown by ``step(_:)`` or ``finalize()`` fails the statement with the error's message;
/// after a failed step, the group's value is discarded without being finalized.
public protocol AggregateFunction {
    /// Creates the state of one group, before its first row.
    init()

    /// Accumulates one row's arguments.
    mutating func step(_ arguments: FunctionArguments) throws

    /// The aggregate's result for the group: any bindable value, or `nil` for `NULL`.
    func finalize() throws -> (any SQLBindable)?
}

// MARK: - Registration

extension Database {
    /// Registers a custom scalar SQL function, replacing any function with the same name and
    /// argument count.
    ///
    /// ```swift
    /// try db.createFunction("double_it", argumentCount: 1, deterministic: true) { arguments in
    ///     try arguments.decode(Int?.self, at: 0).map { $0 * 2 }
    /// }
    /// let value = try db.fetchValue(Int.self, "SELECT double_it(\(21))")   // 42
    /// ```
    ///
    /// The closure returns any ``SQLBindable`` value, or `nil` for `NULL`; dates are stored with
    /// the connection's ``Database/Configuration/dateStrategy``. An error it throws fails the
    /// statement with ``ResultCode/error`` and the error's message (a ``DatabaseError``'s
    /// ``DatabaseError/message``, any other error's description).
    ///
    /// Several functions may share a name when their argument counts differ. Calling a function
    /// with an argument count it was not registered for fails when the statement is prepared.
    ///
    /// - Parameters:
    ///   - name: The SQL name of the function, compared case-insensitively by SQLite.
    ///   - argumentCount: The number of arguments, from 0 to the connection's limit (127 by
    ///     default), or `nil` to accept any number.
    ///   - deterministic: Whether the function always returns the same result for the same
    ///     arguments in one statement. SQLite can then optimize calls, and accepts the function in
    ///     index expressions, `CHECK` constraints and generated columns.
    ///   - function: The implementation. It runs on the thread stepping the statement, during the
    ///     step; it must not close the connection.
    /// - Throws: ``DatabaseError`` with ``ResultCode/misuse`` for an invalid name or argument count
    ///   or a closed connection, and ``ResultCode/busy`` when a running statement uses a function
    ///   this registration would replace.
    public func createFunction(
        _ name: String,
        argumentCount: Int? = nil,
        deterministic: Bool = false,
        _ function: @escaping (FunctionArguments) throws -> (any SQLBindable)?
    ) throws {
        let arity = try validatedFunctionArity(name: name, argumentCount: argumentCount)
        let definition = ScalarFunctionDefinition(
            name: name, dateStrategy: configuration.dateStrategy, function: function)
        // SQLite owns this retain: the destructor releases it, even when registration fails.
        let userData = Unmanaged.passRetained(definition).toOpaque()
        let code = sqlite3_create_function_v2(
            handle, name, arity, Self.functionFlags(deterministic: deterministic), userData,
            { context, argumentCount, arguments in
                guard let userData = sqlite3_user_data(context) else { return }
                Unmanaged<ScalarFunctionDefinition>.fromOpaque(userData).takeUnretainedValue()
                    .call(context, argumentCount, arguments)
            },
            nil,
            nil,
            { userData in
                guard let userData else { return }
                Unmanaged<ScalarFunctionDefinition>.fromOpaque(userData).release()
            })
        try checkFunctionRegistration(code, name: name)
    }

    /// Registers a custom aggregate SQL function implemented by `type`, replacing any function
    /// with the same name and argument count.
    ///
    /// ```swift
    /// try db.createAggregate("product", argumentCount: 1, deterministic: true, Product.self)
    /// ```
    ///
    /// Each group of each query gets its own `type.init()` value, kept by SQLite for the duration
    /// of the group and released after ``AggregateFunction/finalize()`` (or after a failed
    /// ``AggregateFunction/step(_:)``).
    ///
    /// - Parameters:
    ///   - name: The SQL name of the function, compared case-insensitively by SQLite.
    ///   - argumentCount: The number of arguments, from 0 to the connection's limit (127 by
    ///     default), or `nil` to accept any number.
    ///   - deterministic: Whether the aggregate always returns the same result for the same rows.
    ///   - type: The type implementing the aggregate.
    /// - Throws: ``DatabaseError`` with ``ResultCode/misuse`` for an invalid name or argument count
    ///   or a closed connection, and ``ResultCode/busy`` when a running statement uses a function
    ///   this registration would replace.
    public func createAggregate<Aggregate: AggregateFunction>(
        _ name: String,
        argumentCount: Int? = nil,
        deterministic: Bool = false,
        _ type: Aggregate.Type
    ) throws {
        let arity = try validatedFunctionArity(name: name, argumentCount: argumentCount)
        let definition = AggregateFunctionDefinition(
            name: name, dateStrategy: configuration.dateStrategy, makeAggregate: { Aggregate() })
        // SQLite owns this retain: the destructor releases it, even when registration fails.
        let userData = Unmanaged.passRetained(definition).toOpaque()
        let code = sqlite3_create_function_v2(
            handle, name, arity, Self.functionFlags(deterministic: deterministic), userData,
            nil,
            { context, argumentCount, arguments in
                guard let userData = sqlite3_user_data(context) else { return }
                Unmanaged<AggregateFunctionDefinition>.fromOpaque(userData).takeUnretainedValue()
                    .step(context, argumentCount, arguments)
            },
            { context in
                guard let userData = sqlite3_user_data(context) else { return }
                Unmanaged<AggregateFunctionDefinition>.fromOpaque(userData).takeUnretainedValue()
                    .finalize(context)
            },
            { userData in
                guard let userData else { return }
                Unmanaged<AggregateFunctionDefinition>.fromOpaque(userData).release()
            })
        try checkFunctionRegistration(code, name: name)
    }

    /// Removes the custom function (scalar or aggregate) registered with `name` and
    /// `argumentCount`. Functions with the same name and another argument count stay.
    ///
    /// Removing a function that does not exist does nothing. Statements using the function fail
    /// with "no such function" (or a wrong-number-of-arguments error) when they next run.
    ///
    /// SQLite remembers the removal per argument count: after removing the registration for two
    /// arguments, a call with two arguments fails even if a registration for any number of
    /// arguments (`argumentCount: nil`) exists.
    ///
    /// - Parameters:
    ///   - name: The name the function was registered under.
    ///   - argumentCount: The argument count it was registered with; `nil` for a function that
    ///     accepts any number of arguments.
    /// - Throws: ``DatabaseError`` with ``ResultCode/busy`` when a running statement uses the
    ///   function, and ``ResultCode/misuse`` on a closed connection.
    public func removeFunction(_ name: String, argumentCount: Int? = nil) throws {
        let arity = try validatedFunctionArity(name: name, argumentCount: argumentCount, action: "remove")
        let code = sqlite3_create_function_v2(handle, name, arity, SQLITE_UTF8, nil, nil, nil, nil, nil)
        try checkFunctionRegistration(code, name: name, action: "remove")
    }

    // MARK: Helpers

    private static func functionFlags(deterministic: Bool) -> Int32 {
        SQLITE_UTF8 | (deterministic ? SQLITE_DETERMINISTIC : 0)
    }

    /// Checks what SQLite would reject with a bare `SQLITE_MISUSE`, to report it clearly.
    private func validatedFunctionArity(name: String, argumentCount: Int?, action: String = "register") throws -> Int32
    {
        guard !isClosed else {
            throw DatabaseError(
                resultCode: .misuse, message: "cannot \(action) function \(name)(): the connection is closed")
        }
        guard !name.isEmpty, name.utf8.count <= 255, !name.utf8.contains(0) else {
            throw DatabaseError(
                resultCode: .misuse,
                message: "invalid function name \(name.debugDescription): it must be 1 to 255 UTF-8 bytes without NUL")
        }
        guard let argumentCount else { return -1 }
        let limit = Int(sqlite3_limit(handle, SQLITE_LIMIT_FUNCTION_ARG, -1))
        guard (0...limit).contains(argumentCount) else {
            throw DatabaseError(
                resultCode: .misuse,
                message:
                    "invalid argument count \(argumentCount) for function \(name)(): it must be between 0 and \(limit), or nil for any number"
            )
        }
        return Int32(argumentCount)
    }

    private func checkFunctionRegistration(_ code: Int32, name: String, action: String = "register") throws {
        guard code == SQLITE_OK else {
            var error = DatabaseError.lastError(of: handle, code: code)
            error.message = "cannot \(action) function \(name)(): \(error.message)"
            throw error
        }
    }
}

// MARK: - Callback support

/// A registered scalar function, retained by SQLite as the function's user data.
final class ScalarFunctionDefinition {
    let name: String
    let dateStrategy: DateStrategy
    let function: (FunctionArguments) throws -> (any SQLBindable)?

    init(name: String, dateStrategy: DateStrategy, function: @escaping (FunctionArguments) throws -> (any SQLBindable)?)
    {
        self.name = name
        self.dateStrategy = dateStrategy
        self.function = function
    }

    func call(_ context: OpaquePointer?, _ argumentCount: Int32, _ arguments: UnsafeMutablePointer<OpaquePointer?>?) {
        let arguments = FunctionArguments(
            count: argumentCount, arguments: arguments, functionName: name, dateStrategy: dateStrategy)
        do {
            try FunctionResult.set(try function(arguments), in: context, dateStrategy: dateStrategy)
        } catch {
            FunctionResult.setError(error, in: context)
        }
    }
}

/// A registered aggregate function, retained by SQLite as the function's user data.
final class AggregateFunctionDefinition {
    let name: String
    let dateStrategy: DateStrategy
    let makeAggregate: () -> any AggregateFunction

    init(name: String, dateStrategy: DateStrategy, makeAggregate: @escaping () -> any AggregateFunction) {
        self.name = name
        self.dateStrategy = dateStrategy
        self.makeAggregate = makeAggregate
    }

    /// The per-group state. A retained pointer to it lives in `sqlite3_aggregate_context`.
    final class GroupState {
        var aggregate: any AggregateFunction
        var hasFailed = false

        init(_ aggregate: any AggregateFunction) { self.aggregate = aggregate }
    }

    private static let slotSize = Int32(MemoryLayout<UnsafeMutableRawPointer?>.size)

    func step(_ context: OpaquePointer?, _ argumentCount: Int32, _ arguments: UnsafeMutablePointer<OpaquePointer?>?) {
        // SQLite zeroes the context on first allocation, so a fresh group reads a nil pointer.
        guard let slot = sqlite3_aggregate_context(context, Self.slotSize) else {
            sqlite3_result_error_nomem(context)
            return
        }
        let state: GroupState
        if let pointer = slot.load(as: UnsafeMutableRawPointer?.self) {
            state = Unmanaged<GroupState>.fromOpaque(pointer).takeUnretainedValue()
        } else {
            state = GroupState(makeAggregate())
            slot.storeBytes(of: Unmanaged.passRetained(state).toOpaque(), as: UnsafeMutableRawPointer?.self)
        }
        guard !state.hasFailed else { return }
        let arguments = FunctionArguments(
            count: argumentCount, arguments: arguments, functionName: name, dateStrategy: dateStrategy)
        do {
            try state.aggregate.step(arguments)
        } catch {
            state.hasFailed = true
            FunctionResult.setError(error, in: context)
        }
    }

    /// Called once per group, also when the statement stops early after a failed step.
    func finalize(_ context: OpaquePointer?) {
        let aggregate: any AggregateFunction
        // A size of 0 does not allocate: no step ran when there is no context yet.
        if let slot = sqlite3_aggregate_context(context, 0),
            let pointer = slot.load(as: UnsafeMutableRawPointer?.self)
        {
            slot.storeBytes(of: nil, as: UnsafeMutableRawPointer?.self)
            let state = Unmanaged<GroupState>.fromOpaque(pointer).takeRetainedValue()
            if state.hasFailed { return }
            aggregate = state.aggregate
        } else {
            aggregate = makeAggregate()
        }
        do {
            try FunctionResult.set(try aggregate.finalize(), in: context, dateStrategy: dateStrategy)
        } catch {
            FunctionResult.setError(error, in: context)
        }
    }
}

/// Sets a function's result with `sqlite3_result_*`.
enum FunctionResult {
    static func set(_ result: (any SQLBindable)?, in context: OpaquePointer?, dateStrategy: DateStrategy) throws {
        guard let result else {
            sqlite3_result_null(context)
            return
        }
        let value: SQLValue
        if let date = result as? Date {
            value = try dateStrategy.sqlValue(for: date)
        } else {
            value = try result.sqlValue
        }
        switch value {
        case .null:
            sqlite3_result_null(context)
        case .integer(let integer):
            sqlite3_result_int64(context, integer)
        case .real(let real):
            sqlite3_result_double(context, real)
        case .text(var text):
            text.withUTF8 { buffer in
                guard let base = buffer.baseAddress, buffer.count > 0 else {
                    sqlite3_result_text(context, "", 0, slate_sqlite_transient())
                    return
                }
                base.withMemoryRebound(to: CChar.self, capacity: buffer.count) { pointer in
                    sqlite3_result_text64(
                        context, pointer, UInt64(buffer.count), slate_sqlite_transient(), UInt8(SQLITE_UTF8))
                }
            }
        case .blob(let data):
            data.withUnsafeBytes { bytes in
                if let base = bytes.baseAddress, bytes.count > 0 {
                    sqlite3_result_blob64(context, base, UInt64(bytes.count), slate_sqlite_transient())
                } else {
                    sqlite3_result_zeroblob(context, 0)  // an empty blob, not NULL
                }
            }
        }
    }

    /// Fails the call: SQLite copies the message and the statement fails with `SQLITE_ERROR`.
    static func setError(_ error: any Error, in context: OpaquePointer?) {
        let message = (error as? DatabaseError)?.message ?? String(describing: error)
        sqlite3_result_error(context, message, -1)
    }
}
