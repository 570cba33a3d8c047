import CSQLite
import Foundation

// Custom collations: the ordering SQLite uses for `ORDER BY … COLLATE name`, comparisons, indexes
// and columns declared `COLLATE name`.

extension Database {
    /// Registers a collation named `name`, replacing any collation with that name.
    ///
    /// ```swift
    /// try db.createCollation("NUMERIC") { lhs, rhs in
    ///     lhs.compare(rhs, options: .numeric)
    /// }
    /// let names = try db.fetchAll(String.self, "SELECT name FROM file ORDER BY name COLLATE NUMERIC")
    /// ```
    ///
    /// SQLite compares text with the collation wherever it applies: `ORDER BY x COLLATE name`,
    /// `x = y COLLATE name`, and columns or indexes declared `COLLATE name`. The comparison must be
    /// a consistent total order (if `a < b` and `b < c` then `a < c`, and equal strings compare
    /// equal), or indexes using it become inconsistent. Register the collation on every connection
    /// that reads or writes tables declared with it, before using them.
    ///
    /// - Parameters:
    ///   - name: The collation's name, compared case-insensitively by SQLite.
    ///   - compare: Orders two strings. It runs during statement execution and must not use the
    ///     connection.
    /// - Throws: ``DatabaseError`` with ``ResultCode/busy`` when a running statement uses a
    ///   collation this registration would replace, and ``ResultCode/misuse`` on a closed
    ///   connection.
    public func createCollation(_ name: String, _ compare: @escaping (String, String) -> ComparisonResult) throws {
        guard !isClosed else {
            throw DatabaseError(
                resultCode: .misuse, message: "cannot register collation \(name): the connection is closed")
        }
        let definition = CollationDefinition(compare: compare)
        let userData = Unmanaged.passRetained(definition).toOpaque()
        let code = sqlite3_create_collation_v2(
            handle, name, SQLITE_UTF8, userData,
            { userData, lhsCount, lhs, rhsCount, rhs in
                guard let userData else { return 0 }
                let definition = Unmanaged<CollationDefinition>.fromOpaque(userData).takeUnretainedValue()
                return definition.compare(lhs, count: lhsCount, with: rhs, count: rhsCount)
            },
            { userData in
                guard let userData else { return }
                Unmanaged<CollationDefinition>.fromOpaque(userData).release()
            })
        guard code == SQLITE_OK else {
            // Unlike every other SQLite interface, a failed sqlite3_create_collation_v2 does not
            // call the destructor: release the definition here.
            Unmanaged<CollationDefinition>.fromOpaque(userData).release()
            var error = DatabaseError.lastError(of: handle, code: code)
            error.message = "cannot register collation \(name): \(error.message)"
            throw error
        }
    }

    /// Removes the collation registered as `name`.
    ///
    /// Statements and tables that use the collation fail with "no such collation sequence" until
    /// it is registered again. Removing a collation that does not exist does nothing.
    ///
    /// - Throws: ``DatabaseError`` with ``ResultCode/busy`` when a running statement uses the
    ///   collation, and ``ResultCode/misuse`` on a closed connection.
    public func removeCollation(_ name: String) throws {
        guard !isClosed else {
            throw DatabaseError(
                resultCode: .misuse, message: "cannot remove collation \(name): the connection is closed")
        }
        let code = sqlite3_create_collation_v2(handle, name, SQLITE_UTF8, nil, nil, nil)
        guard code == SQLITE_OK else {
            var error = DatabaseError.lastError(of: handle, code: code)
            error.message = "cannot remove collation \(name): \(error.message)"
            throw error
        }
    }
}

/// A registered collation, retained by SQLite as the collation's user data.
final class CollationDefinition {
    let compare: (String, String) -> ComparisonResult

    init(compare: @escaping (String, String) -> ComparisonResult) {
        self.compare = compare
    }

    /// Compares two UTF-8 buffers. They are not NUL-terminated: their lengths delimit them.
    func compare(_ lhs: UnsafeRawPointer?, count lhsCount: Int32, with rhs: UnsafeRawPointer?, count rhsCount: Int32)
        -> Int32
    {
        switch compare(Self.string(lhs, count: lhsCount), Self.string(rhs, count: rhsCount)) {
        case .orderedAscending: return -1
        case .orderedSame: return 0
        case .orderedDescending: return 1
        }
    }

    private static func string(_ bytes: UnsafeRawPointer?, count: Int32) -> String {
        guard let bytes, count > 0 else { return "" }
        return String(decoding: UnsafeRawBufferPointer(start: bytes, count: Int(count)), as: UTF8.self)
    }
}
