import Foundation
import SlateCore

/// A live query: a read that Slate runs once, then again after each commit that changed what it
/// read, delivering each new value.
///
/// The read can be anything a closure does with the ``Database``: a typed query, raw SQL, a count,
/// several queries. While it runs, Slate records its region (the tables, columns and, for reads
/// filtered on an `INTEGER PRIMARY KEY`, rows it read; see ``DatabaseRegion``); after each commit
/// it compares what the transaction changed with that region, and refetches only when they meet.
/// A write to another table, to a column the read did not use, or to another row of a read
/// filtered on its key does not refetch; neither does a transaction or savepoint that rolled back.
///
/// ```swift
/// let observation = DatabaseObservation { db in
///     try Player.where { $0.score > 100 }.order { $0.name }.fetchAll(db)
/// }
///
/// // An async sequence, cancelled with its task:
/// for try await players in observation.values(in: pool) { print(players) }
///
/// // A callback, delivered on a queue you pick, until you cancel the token:
/// let token = observation.start(in: pool, queue: .main) { error in
///     print("stopped: \(error)")
/// } onChange: { players in
///     print(players)
/// }
/// ```
///
/// ``DatabaseWriter/observe(_:)`` is a shorter spelling of the async sequence, and ``LiveQuery``
/// keeps the latest value in an `@Observable` object for SwiftUI.
///
/// With an `Equatable` value, a new value equal to the previous one is not delivered
/// (``keepingDuplicates()`` turns that off). The first value is delivered as soon as it is
/// fetched; later values after the commits that change them, each fetched from a snapshot taken
/// after the commit (on a ``DatabasePool``, by a reader, so the writer is not held up). Several
/// commits in a row may produce one value. When the read throws, the error is delivered and the
/// observation ends.
///
/// Writes by other connections and processes are not seen unless you ask for it with
/// ``pollingExternalChanges(every:)``.
public struct DatabaseObservation<Value: Sendable>: Sendable {
    let fetch: @Sendable (Database) throws -> Value
    var isDuplicate: (@Sendable (Value, Value) -> Bool)?
    var externalChangesInterval: Duration?

    /// An observation of the value `fetch` reads; every value is delivered, even one equal to the
    /// previous.
    public init(_ fetch: @escaping @Sendable (Database) throws -> Value) {
        self.fetch = fetch
    }

    /// The same observation, not delivering a value `isDuplicate` finds equivalent to the value
    /// delivered before it.
    public func removingDuplicates(by isDuplicate: @escaping @Sendable (Value, Value) -> Bool) -> Self {
        var copy = self
        copy.isDuplicate = isDuplicate
        return copy
    }

    /// The same observation, delivering every value fetched, even one equal to the previous.
    public func keepingDuplicates() -> Self {
        var copy = self
        copy.isDuplicate = nil
        return copy
    }

    /// The same observation, also refetching after writes by other connections and processes,
    /// which Slate learns about by reading `PRAGMA data_version` every `interval`.
    ///
    /// Slate sees the commits of the queue or pool it observes as they happen; a commit by another
    /// connection to the same file (another process, another queue) is seen at the next poll, and
    /// refetches whatever it changed, since Slate cannot know what that was. Each poll is one
    /// statement on the writer connection. The interval is at least 1 millisecond; 250 ms is a
    /// reasonable value for an app whose extension writes to its database.
    public func pollingExternalChanges(every interval: Duration = .milliseconds(250)) -> Self {
        var copy = self
        copy.externalChangesInterval = max(interval, .milliseconds(1))
        return copy
    }

    /// The observed values, as an async sequence: the first value, then one after each commit
    /// that changed it. Iterating starts the observation; it ends when the iterating task is
    /// cancelled or the loop exits, and with an error when the read throws.
    ///
    /// ```swift
    /// for try await players in observation.values(in: pool) {
    ///     print(players.count)
    /// }
    /// ```
    ///
    /// When values come faster than the loop takes them, the loop gets the latest one.
    public func values(in writer: some DatabaseWriter) -> Values {
        Values(observation: self, writer: writer)
    }

    /// Starts observing and calls `onChange` with the first value, then with each new one, on
    /// `queue`, one call after another, until the returned token is cancelled or deallocated. When
    /// the read throws, `onError` is called on `queue` and the observation ends.
    ///
    /// - Parameters:
    ///   - writer: The queue or pool to observe.
    ///   - queue: Where the callbacks run: `.main` for user interfaces. The default, a global
    ///     queue, works in command-line tools and servers, whose main queue may never run; calls
    ///     are never concurrent, even on a concurrent queue.
    ///   - onError: Called with the error that ended the observation.
    ///   - onChange: Called with each value.
    /// - Returns: A token: keep it as long as you want values, call
    ///   ``DatabaseObservationToken/cancel()`` to stop.
    public func start(
        in writer: some DatabaseWriter,
        queue: DispatchQueue = .global(),
        onError: @escaping @Sendable (any Error) -> Void,
        onChange: @escaping @Sendable (Value) -> Void
    ) -> DatabaseObservationToken {
        let runner = ObservationRunner(
            observation: self, writer: writer, queue: queue, onError: onError, onChange: onChange)
        runner.start()
        return DatabaseObservationToken(runner)
    }
}

extension DatabaseObservation where Value: Equatable {
    /// An observation of the value `fetch` reads; a value equal to the one delivered before it is
    /// not delivered again.
    public init(_ fetch: @escaping @Sendable (Database) throws -> Value) {
        self.fetch = fetch
        self.isDuplicate = { $0 == $1 }
    }

    /// The same observation, not delivering a value equal to the one delivered before it (the
    /// default for `Equatable` values).
    public func removingDuplicates() -> Self {
        removingDuplicates(by: { $0 == $1 })
    }
}

/// Keeps an observation started with ``DatabaseObservation/start(in:queue:onError:onChange:)``
/// running. Cancelling it, or letting it go, stops the observation.
public final class DatabaseObservationToken: Sendable {
    private let runner: any ObservationCancelling

    init(_ runner: any ObservationCancelling) {
        self.runner = runner
    }

    /// Stops the observation: no value is delivered after this returns, except a callback already
    /// running. Cancelling twice does nothing.
    public func cancel() {
        runner.cancel()
    }

    /// Whether the observation stopped: cancelled, or ended by an error.
    public var isCancelled: Bool { runner.isCancelled }

    deinit {
        runner.cancel()
    }
}

protocol ObservationCancelling: AnyObject, Sendable {
    func cancel()
    var isCancelled: Bool { get }
}

// MARK: - Async sequence

extension DatabaseObservation {
    /// The values of an observation, as an async sequence; see ``DatabaseObservation/values(in:)``.
    public struct Values: AsyncSequence, Sendable {
        public typealias Element = Value

        let observation: DatabaseObservation
        let writer: any DatabaseWriter

        /// Starts the observation. Each iterator observes on its own.
        public func makeAsyncIterator() -> Iterator {
            let (stream, continuation) = AsyncThrowingStream<Value, any Error>.makeStream(
                bufferingPolicy: .bufferingNewest(1))
            let token = observation.start(
                in: writer,
                queue: DispatchQueue(label: "Slate.DatabaseObservation.values"),
                onError: { continuation.finish(throwing: $0) },
                onChange: { continuation.yield($0) })
            // The stream calls this when the task is cancelled, the iterator goes away, or the
            // observation fails; then it lets the token go, which stops the observation.
            continuation.onTermination = { _ in token.cancel() }
            return Iterator(base: stream.makeAsyncIterator(), isDuplicate: observation.isDuplicate)
        }

        /// Iterates the values of an observation.
        public struct Iterator: AsyncIteratorProtocol {
            var base: AsyncThrowingStream<Value, any Error>.Iterator
            let isDuplicate: (@Sendable (Value, Value) -> Bool)?
            var last: Value?

            /// The next value, or `nil` when the task was cancelled.
            public mutating func next() async throws -> Value? {
                while let value = try await base.next() {
                    // The buffer keeps the latest value: it may equal the one taken before.
                    if let isDuplicate, let last, isDuplicate(last, value) { continue }
                    if isDuplicate != nil { last = value }
                    return value
                }
                return nil
            }
        }
    }
}

// MARK: - Conveniences on writers

extension DatabaseWriter {
    /// The values `fetch` reads, now and after each commit that changes them, as an async
    /// sequence; see ``DatabaseObservation``.
    ///
    /// ```swift
    /// for try await players in pool.observe({ db in try Player.order { $0.name }.fetchAll(db) }) {
    ///     print(players)
    /// }
    /// ```
    public func observe<Value: Sendable>(_ fetch: @escaping @Sendable (Database) throws -> Value)
        -> DatabaseObservation<Value>.Values
    {
        DatabaseObservation(fetch).values(in: self)
    }

    /// The values `fetch` reads, now and after each commit that changes them, as an async
    /// sequence; a value equal to the previous one is not delivered again.
    public func observe<Value: Sendable & Equatable>(
        _ fetch: @escaping @Sendable (Database) throws -> Value
    ) -> DatabaseObservation<Value>.Values {
        DatabaseObservation(fetch).values(in: self)
    }

    /// Calls `onChange` on `queue` with the value `fetch` reads, then after each commit that
    /// changes it, until the token is cancelled; see
    /// ``DatabaseObservation/start(in:queue:onError:onChange:)``.
    public func observe<Value: Sendable>(
        _ fetch: @escaping @Sendable (Database) throws -> Value,
        queue: DispatchQueue = .global(),
        onError: @escaping @Sendable (any Error) -> Void,
        onChange: @escaping @Sendable (Value) -> Void
    ) -> DatabaseObservationToken {
        DatabaseObservation(fetch).start(in: self, queue: queue, onError: onError, onChange: onChange)
    }

    /// Calls `onChange` on `queue` with the value `fetch` reads, then after each commit that
    /// changes it, until the token is cancelled; a value equal to the previous one is not
    /// delivered again.
    public func observe<Value: Sendable & Equatable>(
        _ fetch: @escaping @Sendable (Database) throws -> Value,
        queue: DispatchQueue = .global(),
        onError: @escaping @Sendable (any Error) -> Void,
        onChange: @escaping @Sendable (Value) -> Void
    ) -> DatabaseObservationToken {
        DatabaseObservation(fetch).start(in: self, queue: queue, onError: onError, onChange: onChange)
    }
}
