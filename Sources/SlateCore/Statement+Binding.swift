import CSQLite
import Foundation

// The primitive binders every `SQLBindable` conformance ends in. Text and blobs are bound with
// SQLITE_TRANSIENT: SQLite takes one copy, because a Swift string's or data's storage is only
// guaranteed to stay put for the duration of a closure, not until the statement runs.
extension Statement {
    /// Binds `NULL` to parameter `index` (1-based).
    @inlinable
    public func bindNull(at index: Int) throws {
        try check(sqlite3_bind_null(handle, Self.parameterPosition(index)), index: index)
    }

    /// Binds a 64-bit integer to parameter `index` (1-based).
    @inlinable
    public func bindInt64(_ value: Int64, at index: Int) throws {
        try check(sqlite3_bind_int64(handle, Self.parameterPosition(index), value), index: index)
    }

    /// Binds a double to parameter `index` (1-based). Throws ``ResultCode/mismatch`` for NaN,
    /// which SQLite would store as `NULL`.
    @inlinable
    public func bindDouble(_ value: Double, at index: Int) throws {
        if value.isNaN { throw DatabaseError.unrepresentable("NaN", as: "REAL (SQLite would store NULL)") }
        try check(sqlite3_bind_double(handle, Self.parameterPosition(index), value), index: index)
    }

    /// Binds UTF-8 text to parameter `index` (1-based).
    @inlinable
    public func bindText(_ value: String, at index: Int) throws {
        var value = value
        let index32 = Self.parameterPosition(index)
        let code = value.withUTF8 { buffer -> Int32 in
            guard let base = buffer.baseAddress, buffer.count > 0 else {
                return sqlite3_bind_text(handle, index32, "", 0, slate_sqlite_static())
            }
            return base.withMemoryRebound(to: CChar.self, capacity: buffer.count) { pointer in
                sqlite3_bind_text64(
                    handle, index32, pointer, UInt64(buffer.count), slate_sqlite_transient(), UInt8(SQLITE_UTF8))
            }
        }
        try check(code, index: index)
    }

    /// Binds bytes to parameter `index` (1-based). Empty bytes bind an empty blob, not `NULL`.
    @inlinable
    public func bindBlob(_ bytes: UnsafeRawBufferPointer, at index: Int) throws {
        let code: Int32
        let index32 = Self.parameterPosition(index)
        if let base = bytes.baseAddress, bytes.count > 0 {
            code = sqlite3_bind_blob64(handle, index32, base, UInt64(bytes.count), slate_sqlite_transient())
        } else {
            code = sqlite3_bind_zeroblob(handle, index32, 0)
        }
        try check(code, index: index)
    }

    /// Binds a boxed value to parameter `index` (1-based).
    public func bindValue(_ value: SQLValue, at index: Int) throws {
        switch value {
        case .null: try bindNull(at: index)
        case .integer(let integer): try bindInt64(integer, at: index)
        case .real(let real): try bindDouble(real, at: index)
        case .text(let text): try bindText(text, at: index)
        case .blob(let data): try data.withUnsafeBytes { try bindBlob($0, at: index) }
        }
    }

    /// The C parameter position of 1-based `index`; 0 (which SQLite reports as out of range) when it
    /// does not fit.
    @inlinable
    package static func parameterPosition(_ index: Int) -> Int32 {
        Int32(exactly: index) ?? 0
    }

    @inlinable
    package func check(_ code: Int32, index: Int) throws {
        if code != SQLITE_OK { throw boxedBindingFailure(code, index: index) }
    }

    /// ``bindingFailure(_:index:)`` as the error thrown: boxing a `DatabaseError` for `throw`
    /// allocates and copies it, code that every inlined bind would otherwise carry.
    @usableFromInline @inline(never)
    package func boxedBindingFailure(_ code: Int32, index: Int) -> any Error {
        bindingFailure(code, index: index)
    }

    @usableFromInline
    package func bindingFailure(_ code: Int32, index: Int) -> DatabaseError {
        var error = DatabaseError.lastError(of: connection, code: code, sql: sql, arguments: reportedArguments)
        if code == SQLITE_RANGE {
            error.message = "parameter index \(index) is out of range: the statement has \(parameterCount) parameter(s)"
        }
        return error
    }
}
