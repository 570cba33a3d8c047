/// Streams a query's results one at a time, without loading them all.
///
/// ```swift
/// let cursor = try db.fetchCursor(Player.self, "SELECT * FROM player")
/// while let player = try cursor.next() { … }
/// ```
///
/// A cursor holds its statement (and a read transaction) until it is exhausted, ``close()``d, or
/// released. Use it on the connection's thread only, and do not keep it beyond the scope that made
/// it when the connection comes from a queue or pool.
public final class DatabaseCursor<Element> {
    @usableFromInline package let statement: Statement
    @usableFromInline package let decode: (borrowing Row) throws -> Element
    @usableFromInline package var isFinished = false

    @usableFromInline
    package init(statement: Statement, decode: @escaping (borrowing Row) throws -> Element) {
        self.statement = statement
        self.decode = decode
        statement.isCheckedOut = true
    }

    /// The next element, or `nil` when the results are exhausted.
    @inlinable
    public func next() throws -> Element? {
        if isFinished { return nil }
        do {
            guard try statement.step() else {
                close()
                return nil
            }
            return try decode(Row(statement: statement))
        } catch {
            close()
            throw error
        }
    }

    /// Calls `body` with each remaining element.
    @inlinable
    public func forEach(_ body: (Element) throws -> Void) throws {
        while let element = try next() { try body(element) }
    }

    /// Collects the remaining elements.
    @inlinable
    public func collect() throws -> [Element] {
        var elements: [Element] = []
        while let element = try next() { elements.append(element) }
        return elements
    }

    /// Stops early and releases the statement.
    public func close() {
        guard !isFinished else { return }
        isFinished = true
        statement.resetQuietly()
        statement.isCheckedOut = false
    }

    deinit {
        close()
    }
}

/// A cursor over records decoded by their ``RowDecodable/init(row:)``, with no closure call per row.
public final class RecordCursor<Record: RowDecodable> {
    @usableFromInline package let statement: Statement
    @usableFromInline package var isFinished = false

    @usableFromInline
    package init(statement: Statement) {
        self.statement = statement
        statement.isCheckedOut = true
    }

    /// The next record, or `nil` when the results are exhausted.
    @inlinable
    public func next() throws -> Record? {
        if isFinished { return nil }
        do {
            guard try statement.step() else {
                close()
                return nil
            }
            return try Record(row: Row(statement: statement))
        } catch {
            close()
            throw error
        }
    }

    /// Calls `body` with each remaining record.
    @inlinable
    public func forEach(_ body: (Record) throws -> Void) throws {
        while let record = try next() { try body(record) }
    }

    /// Collects the remaining records.
    @inlinable
    public func collect() throws -> [Record] {
        var records: [Record] = []
        while let record = try next() { records.append(record) }
        return records
    }

    /// Stops early and releases the statement.
    public func close() {
        guard !isFinished else { return }
        isFinished = true
        statement.resetQuietly()
        statement.isCheckedOut = false
    }

    deinit {
        close()
    }
}
