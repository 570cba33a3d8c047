import Foundation

/// Reads the values a record binds, for printing record-based statements and for relationship
/// predicates, which need a record's column values by position.
///
/// A ``Table`` only exposes its values through ``Table/bindColumns(to:startingAt:)``, so the
/// record is bound to `SELECT ?1, ?2, …` on a private in-memory connection and the row read back.
/// Values that depend on the connection's ``DateStrategy`` are read with the default strategy.
enum RecordValues {
    private static let scratch = ScratchConnection()

    /// The record's column values, in ``Table/columnDescriptors`` order.
    static func capture<T: Table>(_ record: T) throws -> [SQLValue] {
        let count = T.columnDescriptors.count
        guard count > 0 else { return [] }
        return try scratch.withDatabase { db in
            let text = "SELECT " + (1...count).map { "?\($0)" }.joined(separator: ", ")
            let statement = try db.cachedStatement(sql: text)
            defer { statement.resetQuietly() }
            try record.bindColumns(to: statement, startingAt: 1)
            guard try statement.step() else {
                throw DatabaseError(resultCode: .internal, message: "reading the values of a \(T.self) returned no row")
            }
            return statement.withCurrentRow { row in (0..<count).map { row.value(at: $0) } }
        }
    }
}

/// A lazily opened in-memory connection, used under a lock.
private final class ScratchConnection: @unchecked Sendable {
    private let lock = NSLock()
    private var database: Database?

    func withDatabase<Result>(_ body: (Database) throws -> Result) throws -> Result {
        lock.lock()
        defer { lock.unlock() }
        let db: Database
        if let database {
            db = database
        } else {
            db = try Database(location: .inMemory)
            database = db
        }
        return try body(db)
    }
}
