import CSQLite
import SlateCore

/// Binds the fields of a CSV row to an `INSERT`'s parameters, by the import's column plans: text
/// as text (pointing into the reader's buffer, not copied), numbers parsed for the columns with a
/// numeric affinity, blob literals and numbers by their syntax for columns without one, and empty
/// unquoted fields as `NULL` when asked. The import's one place that calls `sqlite3_bind_*`.
final class CSVRowBinder {
    /// What binding a row did.
    enum Result {
        /// Every field is bound. `needsTypeCheck`: a column of inferred numeric type got text that
        /// SQLite might convert; the row must be checked after its insert.
        case bound(needsTypeCheck: Bool)
        /// SQLite refused the field of this plan.
        case failed(Int)
    }

    /// Binds one row's fields, which point into `buffer`, to the parameters from
    /// `firstParameter` on.
    func bind(
        _ fields: UnsafePointer<CSVReader.Field>, to statement: OpaquePointer, firstParameter: Int32,
        buffer base: UnsafeMutablePointer<UInt8>
    ) -> Result {
        let emptyIsNull = emptyFieldsAreNull
        var needsTypeCheck = false
        var parameter = firstParameter
        for (index, plan) in bindingPlans.enumerated() {
            let field = fields[plan.field]
            let bytes = base + field.start
            let count = field.count
            let code: Int32
            if count == 0 && emptyIsNull && field.flags & CSVReader.quotedFlag == 0 {
                code = sqlite3_bind_null(statement, parameter)
            } else {
                switch plan.binding {
                case .text:
                    code = bindText(statement, parameter, bytes, count)
                case .number, .inferredNumber:
                    switch CSVNumberParser.classify(bytes, count) {
                    case .integer(let value): code = sqlite3_bind_int64(statement, parameter, value)
                    case .real(let value): code = sqlite3_bind_double(statement, parameter, value)
                    case .text:
                        if plan.binding == .inferredNumber && CSVNumberParser.mightBeConvertedBySQLite(bytes, count) {
                            needsTypeCheck = true
                        }
                        code = bindText(statement, parameter, bytes, count)
                    }
                case .any:
                    code = bindUntyped(
                        statement, parameter, bytes, count, quoted: field.flags & CSVReader.quotedFlag != 0)
                }
            }
            if code != SQLITE_OK { return .failed(index) }
            parameter += 1
        }
        return .bound(needsTypeCheck: needsTypeCheck)
    }

    /// What the binding loop needs of a plan: plain values, no reference counting.
    private struct BindingPlan {
        var field: Int
        var binding: CSVBinding
    }

    /// The column plans, for the binding loop.
    private let bindingPlans: UnsafeMutableBufferPointer<BindingPlan>
    private let emptyFieldsAreNull: Bool
    /// Scratch for decoding blob literals.
    private var blob: [UInt8] = []

    init(plans: [CSVColumnPlan], emptyFieldsAreNull: Bool) {
        bindingPlans = .allocate(capacity: plans.count)
        _ = bindingPlans.initialize(from: plans.map { BindingPlan(field: $0.field, binding: $0.binding) })
        self.emptyFieldsAreNull = emptyFieldsAreNull
    }

    deinit {
        bindingPlans.baseAddress?.deallocate()
    }

    /// A field of a column without affinity: the field's syntax decides. Quoted fields are text.
    private func bindUntyped(
        _ statement: OpaquePointer, _ parameter: Int32, _ bytes: UnsafeMutablePointer<UInt8>, _ count: Int, quoted: Bool
    ) -> Int32 {
        if quoted { return bindText(statement, parameter, bytes, count) }
        if let decoded = CSVBlobLiteral.decode(bytes, count, into: &blob) {
            guard decoded else { return sqlite3_bind_zeroblob(statement, parameter, 0) }
            return blob.withUnsafeBytes {
                sqlite3_bind_blob64(statement, parameter, $0.baseAddress, UInt64($0.count), slate_sqlite_transient())
            }
        }
        switch CSVNumberParser.classify(bytes, count) {
        case .integer(let value): return sqlite3_bind_int64(statement, parameter, value)
        case .real(let value): return sqlite3_bind_double(statement, parameter, value)
        case .text: return bindText(statement, parameter, bytes, count)
        }
    }

    private func bindText(
        _ statement: OpaquePointer, _ parameter: Int32, _ bytes: UnsafeMutablePointer<UInt8>, _ count: Int
    ) -> Int32 {
        // SQLITE_STATIC: the bytes stay in the reader's buffer until the row is inserted (the
        // reader calls `flush` before it moves them).
        bytes.withMemoryRebound(to: CChar.self, capacity: count) {
            sqlite3_bind_text64(statement, parameter, $0, UInt64(count), slate_sqlite_static(), UInt8(SQLITE_UTF8))
        }
    }
}
