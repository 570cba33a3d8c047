import Foundation
import Slate

/// A thread-safe list of values, for recording what happened from several threads.
package final class ConcurrentLog<Element: Sendable>: @unchecked Sendable {
    // @unchecked Sendable: `storage` is only touched while `lock` is held.
    private let lock = NSLock()
    private var storage: [Element] = []

    package init() {}

    package func append(_ element: Element) {
        lock.lock()
        storage.append(element)
        lock.unlock()
    }

    package var values: [Element] {
        lock.lock()
        defer { lock.unlock() }
        return storage
    }
}

/// How long the concurrency tests wait for something that must happen (a task starting, a value
/// arriving) before they record a failure. Long: under a parallel release build on two cores, the
/// cooperative pool's threads (one per core) can be held for minutes by the suite's long
/// synchronous tests (fault sweeps, subprocesses), and a task waits for one of them to start. A
/// correct run passes in seconds; only a broken one waits this long.
package let livenessTimeout: TimeInterval = 600

/// A thread-safe flag.
package final class ConcurrentFlag: @unchecked Sendable {
    // @unchecked Sendable: `value` is only touched while `lock` is held.
    private let lock = NSLock()
    private var value = false

    package init() {}

    package func set() {
        lock.lock()
        value = true
        lock.unlock()
    }

    package var isSet: Bool {
        lock.lock()
        defer { lock.unlock() }
        return value
    }

    /// Waits until the flag is set, polling, for at most `timeout` seconds. Returns whether it was set.
    package func wait(timeout: TimeInterval = livenessTimeout) async -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while !isSet, Date() < deadline {
            try? await Task.sleep(nanoseconds: 2_000_000)
        }
        return isSet
    }
}

/// The error `body` throws, as a `DatabaseError`, or `nil` when it throws nothing or another error.
package func capturedDatabaseError<Value>(_ body: () throws -> Value) -> DatabaseError? {
    do {
        _ = try body()
        return nil
    } catch {
        return error as? DatabaseError
    }
}

/// The error `body` throws, as a `DatabaseError`, or `nil` when it throws nothing or another error.
package func capturedAsyncDatabaseError<Value>(_ body: () async throws -> Value) async -> DatabaseError? {
    do {
        _ = try await body()
        return nil
    } catch {
        return error as? DatabaseError
    }
}

/// Calls a completion-handler API and awaits the `Result` it delivers.
package func awaitCompletion<Value: Sendable>(
    _ start: (@escaping @Sendable (Result<Value, any Error>) -> Void) -> Void
) async -> Result<Value, any Error> {
    await withCheckedContinuation { continuation in
        start { continuation.resume(returning: $0) }
    }
}

extension Result {
    /// The failure as a `DatabaseError`, or `nil`.
    package var failureAsDatabaseError: DatabaseError? {
        if case .failure(let error) = self { return error as? DatabaseError }
        return nil
    }
}

/// A query that takes minutes unless interrupted (a count to a billion: about 200 s here), so that
/// a test whose cancellation or interrupt is delayed by a loaded machine still finds it running.
package let longCountingQuerySQL = """
    WITH RECURSIVE counter(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM counter WHERE x < 1000000000)
    SELECT count(*) FROM counter
    """

/// Runs a query like ``longCountingQuerySQL`` on `db` and sets `running` from inside it, through a
/// SQL function its first row calls: the flag is set only once the statement runs. An interrupt sent
/// after that reaches the statement, while one sent before the statement starts (with the flag set
/// by the caller just before the query) would be lost, and the query would run to its end.
package func countLongSettingWhenRunning(_ db: Database, _ running: ConcurrentFlag) throws -> Int {
    try db.createFunction("slate_test_running", argumentCount: 0) { _ in
        running.set()
        return 1
    }
    return try db.fetchValue(
        Int.self,
        sql: """
            WITH RECURSIVE counter(x) AS (
                SELECT slate_test_running() UNION ALL SELECT x + 1 FROM counter WHERE x < 1000000000)
            SELECT count(*) FROM counter
            """)
}

/// Creates a fresh database file path in a new temporary directory.
package func makeTemporaryDatabase(_ name: String = "test.sqlite") throws -> (
    directory: TemporaryDirectory, path: String
) {
    let directory = try TemporaryDirectory()
    return (directory, directory.path(name))
}

/// Runs `body` on a thread of its own, outside Swift concurrency (so the blocking APIs are the
/// ones called), and awaits its result.
package func runOnThread<Value: Sendable>(_ body: @escaping @Sendable () throws -> Value) async throws -> Value {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try body() }) }.start()
    }
}
