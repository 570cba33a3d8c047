import SlateCodeModel
import SlateCore
import SlateQuery

// The C API helpers every raw-style file carries, private to that file.

extension RawRenderer {
    func writeHelpers(to out: inout SourceWriter) {
        out.line("// MARK: - C API helpers (private to this file)")
        out.line()
        for line in Self.helperSource.split(separator: "\n", omittingEmptySubsequences: false) {
            out.line(String(line))
        }
        if model.usesSlate {
            // The `both` style keeps Slate's `SQLValue` for columns of unknown type.
            for line in Self.valueHelperSource.split(separator: "\n", omittingEmptySubsequences: false) {
                out.line(String(line))
            }
        }
    }

    /// `SQLValue` helpers, for the `both` style only (the raw style has no Slate).
    static let valueHelperSource = #"""

        fileprivate func slateRawValue(_ statement: OpaquePointer, _ index: Int32) -> SQLValue? {
            switch sqlite3_column_type(statement, index) {
            case SQLITE_INTEGER: return .integer(sqlite3_column_int64(statement, index))
            case SQLITE_FLOAT: return .real(sqlite3_column_double(statement, index))
            case SQLITE_TEXT: return slateRawText(statement, index).map { .text($0) }
            case SQLITE_BLOB: return slateRawData(statement, index).map { .blob($0) }
            default: return nil
            }
        }

        fileprivate func slateRawBind(_ statement: OpaquePointer, _ index: Int32, _ value: SQLValue?) -> Int32 {
            switch value {
            case .none, .some(.null): return sqlite3_bind_null(statement, index)
            case .some(.integer(let integer)): return sqlite3_bind_int64(statement, index, integer)
            case .some(.real(let real)): return sqlite3_bind_double(statement, index, real)
            case .some(.text(let text)): return slateRawBind(statement, index, text)
            case .some(.blob(let data)): return slateRawBind(statement, index, data)
            }
        }
        """#

    /// Helpers shared by the functions of one generated file. They are `fileprivate`, so several
    /// generated files in one module do not clash.
    ///
    /// `slateRawTransient`'s `unsafeBitCast` is not a speed-up: the raw style's code imports only
    /// SQLite's own module, which cannot export the C macro `SQLITE_TRANSIENT`
    /// (`(sqlite3_destructor_type)-1`), and this cast is the one way to spell that value in Swift
    /// without a C shim of Slate's (the library itself uses `slate_sqlite_transient()` in
    /// CSQLite's shim.h). The value is the one SQLite documents, so the cast depends on no private
    /// layout.
    static let helperSource = #"""
        /// `SQLITE_TRANSIENT`: SQLite copies bound text and blobs before the call returns.
        fileprivate var slateRawTransient: sqlite3_destructor_type { unsafeBitCast(-1, to: sqlite3_destructor_type.self) }

        fileprivate func slateRawCollect<Record>(
            _ statement: OpaquePointer, decode: (OpaquePointer) -> Record?, filter: (Record) -> Bool
        ) -> [Record]? {
            var records: [Record] = []
            while true {
                let code = sqlite3_step(statement)
                if code == SQLITE_DONE { return records }
                guard code == SQLITE_ROW, let record = decode(statement) else { return nil }
                if filter(record) { records.append(record) }
            }
        }

        // Readers: `nil` when the column is `NULL` or cannot be read as the type, never a made-up value.

        /// For an optional property: `.some(nil)` when the column is `NULL`, `nil` when `value` fails.
        fileprivate func slateRawOptional<Value>(_ statement: OpaquePointer, _ index: Int32, _ value: @autoclosure () -> Value?) -> Value?? {
            if sqlite3_column_type(statement, index) == SQLITE_NULL { return .some(nil) }
            guard let value = value() else { return nil }
            return .some(value)
        }

        /// A number, as stored or as TEXT spells it.
        fileprivate enum SlateRawNumber {
            case integer(Int64), real(Double)
        }

        /// The column's number: an INTEGER, a REAL, or TEXT that is all a decimal number between spaces
        /// (`42`, ` -7 `, `3.0`, `1e3`; not `12abc`, `0x1A` or `inf`). `nil` for anything else.
        fileprivate func slateRawNumber(_ statement: OpaquePointer, _ index: Int32) -> SlateRawNumber? {
            switch sqlite3_column_type(statement, index) {
            case SQLITE_INTEGER: return .integer(sqlite3_column_int64(statement, index))
            case SQLITE_FLOAT: return .real(sqlite3_column_double(statement, index))
            case SQLITE_TEXT:
                guard let text = slateRawText(statement, index)?.trimmingCharacters(in: .whitespacesAndNewlines), !text.isEmpty,
                    text.utf8.allSatisfy({ ($0 >= 48 && $0 <= 57) || $0 == 43 || $0 == 45 || $0 == 46 || $0 == 69 || $0 == 101 })
                else { return nil }
                if let integer = Int64(text) { return .integer(integer) }
                guard let real = Double(text), real.isFinite else { return nil }
                return .real(real)
            default: return nil
            }
        }

        /// The column as an `Int64`, exactly: an integer, or a whole REAL in range. `nil` for `NULL`
        /// and for a value that would lose information (3.7, 1e300, '12abc').
        fileprivate func slateRawInt64(_ statement: OpaquePointer, _ index: Int32) -> Int64? {
            if sqlite3_column_type(statement, index) == SQLITE_INTEGER { return sqlite3_column_int64(statement, index) }
            switch slateRawNumber(statement, index) {
            case .integer(let integer)?: return integer
            case .real(let real)?: return Int64(exactly: real)
            case nil: return nil
            }
        }

        /// The column as a `Double`, exactly: a REAL, or an integer a `Double` holds exactly. `nil` for
        /// `NULL` and for a value that would lose information (2^53 + 1, '12abc').
        fileprivate func slateRawDouble(_ statement: OpaquePointer, _ index: Int32) -> Double? {
            if sqlite3_column_type(statement, index) == SQLITE_FLOAT { return sqlite3_column_double(statement, index) }
            switch slateRawNumber(statement, index) {
            case .integer(let integer)?: return Double(exactly: integer)
            case .real(let real)?: return real
            case nil: return nil
            }
        }

        /// `value` as a `Float` when a `Float` holds it exactly; `nil` for a value that would round.
        fileprivate func slateRawFloat(_ value: Double) -> Float? {
            Float(exactly: value)
        }

        /// TEXT, or a number as SQLite writes it as text.
        fileprivate func slateRawText(_ statement: OpaquePointer, _ index: Int32) -> String? {
            let type = sqlite3_column_type(statement, index)
            guard type == SQLITE_TEXT || type == SQLITE_INTEGER || type == SQLITE_FLOAT, let text = sqlite3_column_text(statement, index) else {
                return nil
            }
            let count = Int(sqlite3_column_bytes(statement, index))
            return String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)
        }

        /// A BLOB, or the UTF-8 bytes of TEXT.
        fileprivate func slateRawData(_ statement: OpaquePointer, _ index: Int32) -> Data? {
            let type = sqlite3_column_type(statement, index)
            guard type == SQLITE_BLOB || type == SQLITE_TEXT else { return nil }
            let count = Int(sqlite3_column_bytes(statement, index))
            guard count > 0, let bytes = sqlite3_column_blob(statement, index) else { return Data() }
            return Data(bytes: bytes, count: count)
        }

        fileprivate func slateRawUUID(_ statement: OpaquePointer, _ index: Int32) -> UUID? {
            switch sqlite3_column_type(statement, index) {
            case SQLITE_TEXT:
                return slateRawText(statement, index).flatMap { UUID(uuidString: $0) }
            case SQLITE_BLOB:
                guard let data = slateRawData(statement, index), data.count == 16 else { return nil }
                let b = [UInt8](data)
                return UUID(uuid: (b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]))
            default:
                return nil
            }
        }

        /// An INTEGER exactly; a REAL by its shortest decimal form, not its binary fraction; or text
        /// holding a number and nothing else (`Decimal(string:)` alone reads `12abc` as 12).
        fileprivate func slateRawDecimal(_ statement: OpaquePointer, _ index: Int32) -> Decimal? {
            let text: String?
            switch sqlite3_column_type(statement, index) {
            case SQLITE_INTEGER: return Decimal(sqlite3_column_int64(statement, index))
            case SQLITE_FLOAT: text = "\(sqlite3_column_double(statement, index))"
            case SQLITE_TEXT: text = slateRawText(statement, index)?.trimmingCharacters(in: .whitespaces)
            default: return nil
            }
            guard let text, Double(text) != nil, text.allSatisfy({ "0123456789+-.eE".contains($0) }) else { return nil }
            return Decimal(string: text, locale: Locale(identifier: "en_US_POSIX"))
        }

        /// A date column, which the generated SQL converts to Unix seconds: anything else (text that is
        /// not a date, a BLOB) is not a date.
        fileprivate func slateRawDate(_ statement: OpaquePointer, _ index: Int32) -> Date? {
            let type = sqlite3_column_type(statement, index)
            guard type == SQLITE_FLOAT || type == SQLITE_INTEGER else { return nil }
            return Date(timeIntervalSince1970: sqlite3_column_double(statement, index))
        }

        // Binders: SQLite's result code; `SQLITE_MISMATCH` for a value the column cannot store as it is.

        /// `SQLITE_MISMATCH` for a value outside SQLite's 64-bit integers (a `UInt64` above `Int64.max`).
        fileprivate func slateRawBind<Value: BinaryInteger>(_ statement: OpaquePointer, _ index: Int32, _ value: Value?) -> Int32 {
            guard let value else { return sqlite3_bind_null(statement, index) }
            guard let integer = Int64(exactly: value) else { return SQLITE_MISMATCH }
            return sqlite3_bind_int64(statement, index, integer)
        }

        fileprivate func slateRawBind(_ statement: OpaquePointer, _ index: Int32, _ value: Bool?) -> Int32 {
            guard let value else { return sqlite3_bind_null(statement, index) }
            return sqlite3_bind_int64(statement, index, value ? 1 : 0)
        }

        fileprivate func slateRawBind(_ statement: OpaquePointer, _ index: Int32, _ value: Double?) -> Int32 {
            guard let value else { return sqlite3_bind_null(statement, index) }
            return sqlite3_bind_double(statement, index, value)
        }

        fileprivate func slateRawBind(_ statement: OpaquePointer, _ index: Int32, _ value: Float?) -> Int32 {
            guard let value else { return sqlite3_bind_null(statement, index) }
            return sqlite3_bind_double(statement, index, Double(value))
        }

        /// `SQLITE_TOOBIG` for text longer than SQLite's length limit.
        fileprivate func slateRawBind(_ statement: OpaquePointer, _ index: Int32, _ value: String?) -> Int32 {
            guard let value else { return sqlite3_bind_null(statement, index) }
            return sqlite3_bind_text64(statement, index, value, UInt64(value.utf8.count), slateRawTransient, UInt8(SQLITE_UTF8))
        }

        /// `SQLITE_TOOBIG` for bytes beyond SQLite's length limit.
        fileprivate func slateRawBind(_ statement: OpaquePointer, _ index: Int32, _ value: Data?) -> Int32 {
            guard let value else { return sqlite3_bind_null(statement, index) }
            return value.withUnsafeBytes { bytes in
                guard let base = bytes.baseAddress, bytes.count > 0 else { return sqlite3_bind_zeroblob(statement, index, 0) }
                return sqlite3_bind_blob64(statement, index, base, UInt64(bytes.count), slateRawTransient)
            }
        }

        fileprivate func slateRawBind(_ statement: OpaquePointer, _ index: Int32, _ value: [UInt8]?) -> Int32 {
            slateRawBind(statement, index, value.map { Data($0) })
        }

        fileprivate func slateRawBind(_ statement: OpaquePointer, _ index: Int32, _ value: UUID?) -> Int32 {
            slateRawBind(statement, index, value?.uuidString.lowercased())  // RFC 9562's form, as Slate writes
        }

        fileprivate func slateRawBindUUIDBytes(_ statement: OpaquePointer, _ index: Int32, _ value: UUID?) -> Int32 {
            guard let value else { return sqlite3_bind_null(statement, index) }
            return slateRawBind(statement, index, withUnsafeBytes(of: value.uuid) { Data($0) })
        }

        fileprivate func slateRawBind(_ statement: OpaquePointer, _ index: Int32, _ value: URL?) -> Int32 {
            slateRawBind(statement, index, value?.absoluteString)
        }

        /// `SQLITE_MISMATCH` for NaN, which would not read back.
        fileprivate func slateRawBind(_ statement: OpaquePointer, _ index: Int32, _ value: Decimal?) -> Int32 {
            if value?.isNaN == true { return SQLITE_MISMATCH }
            return slateRawBind(statement, index, value?.description)
        }

        /// How a `Date` column is stored. The generated SQL converts what `slateRawBind` binds.
        fileprivate enum SlateRawDateStorage {
            case iso8601, unixSeconds, unixMilliseconds, julianDay
        }

        /// Binds whole Unix milliseconds (`iso8601`, `unixMilliseconds`) or Unix seconds, which the
        /// generated SQL stores as the column's storage says. `SQLITE_MISMATCH` for a date that is not
        /// finite, or, as ISO-8601 text, outside the years 0000 to 9999.
        fileprivate func slateRawBind(_ statement: OpaquePointer, _ index: Int32, _ value: Date?, _ storage: SlateRawDateStorage) -> Int32 {
            guard let seconds = value?.timeIntervalSince1970 else { return sqlite3_bind_null(statement, index) }
            let number = storage == .iso8601 || storage == .unixMilliseconds ? (seconds * 1000).rounded() : seconds
            guard number.isFinite, storage != .iso8601 || (-62_167_219_200_000...253_402_300_799_999).contains(number) else { return SQLITE_MISMATCH }
            if let whole = Int64(exactly: number) { return sqlite3_bind_int64(statement, index, whole) }
            return sqlite3_bind_double(statement, index, number)
        }
        """#
}
