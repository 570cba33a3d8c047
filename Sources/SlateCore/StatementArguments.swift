import CSQLite

/// Values for a statement's parameters: positional (`?`, `?NNN`), named (`:name`, `@name`,
/// `$name`), or both.
///
/// ```swift
/// try db.execute(sql: "INSERT INTO car VALUES (?, ?)", arguments: ["Audi", 52_642])
/// try db.execute(sql: "INSERT INTO car VALUES (:name, :price)", arguments: ["name": "Audi", "price": 52_642])
/// ```
///
/// Named keys may include their prefix (`":name"`) or not (`"name"`).
public struct StatementArguments: ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, Sendable {
    /// Values for positional parameters, in order.
    public var positional: [(any SQLBindable)?]
    /// Values for named parameters, keyed by name without prefix.
    public var named: [String: (any SQLBindable)?]

    /// No arguments.
    public init() {
        positional = []
        named = [:]
    }

    /// Creates arguments.
    public init(_ positional: [(any SQLBindable)?], named: [String: (any SQLBindable)?] = [:]) {
        self.positional = positional
        self.named = [:]
        for (key, value) in named { self.named[Self.normalize(key)] = value }
    }

    /// Arguments whose named keys are already without prefix.
    @inlinable
    package init(positional: [(any SQLBindable)?], normalizedNamed named: [String: (any SQLBindable)?]) {
        self.positional = positional
        self.named = named
    }

    public init(arrayLiteral elements: (any SQLBindable)?...) {
        self.init(elements)
    }

    public init(dictionaryLiteral elements: (String, (any SQLBindable)?)...) {
        self.init([], named: Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }

    /// Whether there is no value at all.
    public var isEmpty: Bool { positional.isEmpty && named.isEmpty }

    /// Appends the values of `other`.
    public mutating func append(contentsOf other: StatementArguments) {
        positional += other.positional
        named.merge(other.named) { _, last in last }
    }

    static func normalize(_ name: String) -> String {
        if let first = name.first, ":@$".contains(first) { return String(name.dropFirst()) }
        return name
    }

    /// The values in parameter order, boxed, for error reports.
    func values(for statement: Statement) throws -> [SQLValue] {
        var result: [SQLValue] = []
        var nextPositional = 0
        for index in 1...max(1, statement.parameterCount) where statement.parameterCount > 0 {
            let name = statement.parameterName(at: index)
            let value: (any SQLBindable)??
            if let name, !name.hasPrefix("?") {
                value = named[Self.normalize(name)]
            } else if nextPositional < positional.count {
                value = positional[nextPositional]
                nextPositional += 1
            } else {
                value = nil
            }
            result.append(try value.flatMap { try $0?.sqlValue } ?? .null)
        }
        return result
    }
}

extension Statement {
    /// Binds every parameter from `arguments`, replacing earlier bindings.
    ///
    /// - Throws: ``DatabaseError`` with ``ResultCode/range`` when the number of positional values
    ///   differs from the number of positional parameters, when a named parameter has no value, or
    ///   when a named value matches no parameter.
    @discardableResult
    public func bind(_ arguments: StatementArguments) throws -> Statement {
        try bind(arguments, requiringAllNamesUsed: true)
        return self
    }

    /// Binds values to the positional parameters, in order, and returns the statement for chaining:
    /// `try statement.bind(1, "Audi").run()`.
    @discardableResult
    public func bind(_ values: (any SQLBindable)?...) throws -> Statement {
        try bind(StatementArguments(values))
    }

    /// Binds one value to the parameter called `name` (with or without its `:`, `@` or `$` prefix).
    @discardableResult
    public func bind(_ value: (any SQLBindable)?, named name: String) throws -> Statement {
        guard let index = parameterIndex(named: name) else {
            throw DatabaseError(resultCode: .range, message: "the statement has no parameter named \(name)", sql: sql)
        }
        try bindExistential(value, at: index)
        return self
    }

    /// Binds `value` to parameter `index` (1-based) with no boxing: the fast path typed code uses.
    @inlinable
    public func bind<Value: SQLBindable>(_ value: Value, at index: Int) throws {
        do {
            try value.bind(to: self, at: index)
        } catch {
            // The cast and the context are out of line: the inlined bind stays one call into SQLite
            // and one comparison.
            throw withContext(anyError: error)
        }
    }

    /// `error` with the statement's SQL and arguments when it is a ``DatabaseError`` without
    /// them; any other error as it is.
    @usableFromInline
    package func withContext(anyError error: any Error) -> any Error {
        guard let error = error as? DatabaseError else { return error }
        return withContext(error)
    }

    func bindExistential(_ value: (any SQLBindable)?, at index: Int) throws {
        do {
            if let value {
                try value.bind(to: self, at: index)
            } else {
                try bindNull(at: index)
            }
        } catch let error as DatabaseError {
            throw withContext(error)
        }
    }

    /// `error` with this statement's SQL (and its arguments, when errors report them): a value's
    /// `bind(to:at:)` refuses it (a NaN, a `UInt64` above `Int64.max`, a date a strategy cannot
    /// hold) without knowing the statement.
    @usableFromInline
    package func withContext(_ error: DatabaseError) -> DatabaseError {
        guard error.sql == nil else { return error }
        var error = error
        error.sql = sql
        if error.arguments == nil { error.arguments = reportedArguments }
        return error
    }

    /// Binds and reports which named values were used. Used by multi-statement execution, where a
    /// named value may belong to a later statement.
    @discardableResult
    func bind(_ arguments: StatementArguments, requiringAllNamesUsed: Bool, positionalOffset: Int = 0) throws -> (
        usedNames: Set<String>, positionalConsumed: Int
    ) {
        if includesArgumentsInErrors { lastArguments = arguments }
        let count = Int(sqlite3_bind_parameter_count(handle))
        var usedNames: Set<String> = []
        var nextPositional = positionalOffset
        var namedParameterCount = 0
        for index in 0..<count {
            let parameter = index + 1
            if let name = parameterName(at: index + 1), !name.hasPrefix("?") {
                namedParameterCount += 1
                let key = StatementArguments.normalize(name)
                if let value = arguments.named[key] {
                    usedNames.insert(key)
                    try bindExistential(value, at: parameter)
                } else if arguments.named.isEmpty, nextPositional < arguments.positional.count {
                    // Positional values fill named parameters when no names were given.
                    try bindExistential(arguments.positional[nextPositional], at: parameter)
                    nextPositional += 1
                } else {
                    throw DatabaseError(
                        resultCode: .range, message: "missing a value for parameter \(name)", sql: sql,
                        arguments: reportedArguments)
                }
            } else {
                guard nextPositional < arguments.positional.count else {
                    throw wrongArgumentCount(expected: count - namedParameterCount, arguments: arguments)
                }
                try bindExistential(arguments.positional[nextPositional], at: parameter)
                nextPositional += 1
            }
        }
        if requiringAllNamesUsed {
            if nextPositional != arguments.positional.count + positionalOffset && positionalOffset == 0 {
                throw wrongArgumentCount(expected: nextPositional, arguments: arguments)
            }
            if let unused = Set(arguments.named.keys).subtracting(usedNames).sorted().first {
                throw DatabaseError(
                    resultCode: .range, message: "the statement has no parameter named \(unused)", sql: sql,
                    arguments: reportedArguments)
            }
        }
        return (usedNames, nextPositional - positionalOffset)
    }

    private func wrongArgumentCount(expected: Int, arguments: StatementArguments) -> DatabaseError {
        DatabaseError(
            resultCode: .range,
            message: "wrong number of arguments: the statement expects \(expected), got \(arguments.positional.count)",
            sql: sql, arguments: reportedArguments)
    }
}
