import Foundation
import Observation
import SlateCore

/// The latest value of a live query, in an `@Observable` object: SwiftUI views, and any code using
/// Swift's Observation (`withObservationTracking`, `Observations`), update when it changes.
///
/// ```swift
/// struct PlayerList: View {
///     @State private var players = LiveQuery(in: AppDatabase.shared.pool, initialValue: []) { db in
///         try Player.order { $0.score.descending() }.fetchAll(db)
///     }
///
///     var body: some View {
///         List(players.value) { player in Text(player.name) }
///     }
/// }
/// ```
///
/// ``value`` holds `initialValue` until the first fetch, then each new value: after each commit
/// that changed what the query read (see ``DatabaseObservation``). When the read throws, ``error``
/// holds the error and the query stops. The query runs until ``cancel()`` or until the object is
/// deallocated.
///
/// Values are set on `queue`, the main queue unless you pick another, which is what SwiftUI
/// expects. Reading ``value`` and ``error`` is safe from any thread.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
public final class LiveQuery<Value: Sendable>: Observable, @unchecked Sendable {
    // @unchecked Sendable: `storedValue`, `storedError`, `storedIsLoaded` and `token` are only
    // touched while `lock` is held; the registrar is Sendable.
    private let registrar = ObservationRegistrar()
    private let lock = NSLock()
    private var storedValue: Value
    private var storedError: (any Error)?
    private var storedIsLoaded = false
    private var token: DatabaseObservationToken?

    /// Starts observing `observation` in `writer`.
    ///
    /// - Parameters:
    ///   - observation: What to observe.
    ///   - writer: The queue or pool to observe.
    ///   - initialValue: The value until the first fetch completes.
    ///   - queue: Where ``value`` and ``error`` change: `.main` (the default) for user interfaces.
    public init(
        _ observation: DatabaseObservation<Value>,
        in writer: some DatabaseWriter,
        initialValue: Value,
        queue: DispatchQueue = .main
    ) {
        self.storedValue = initialValue
        let token = observation.start(
            in: writer,
            queue: queue,
            onError: { [weak self] error in self?.setError(error) },
            onChange: { [weak self] value in self?.setValue(value) })
        lock.lock()
        self.token = token
        lock.unlock()
    }

    /// Starts observing the value `fetch` reads in `writer`; every value is set, even one equal to
    /// the previous.
    public convenience init(
        in writer: some DatabaseWriter,
        initialValue: Value,
        queue: DispatchQueue = .main,
        _ fetch: @escaping @Sendable (Database) throws -> Value
    ) {
        self.init(DatabaseObservation(fetch), in: writer, initialValue: initialValue, queue: queue)
    }

    /// The latest value: `initialValue` until the first fetch completes.
    public var value: Value {
        registrar.access(self, keyPath: \.value)
        lock.lock()
        defer { lock.unlock() }
        return storedValue
    }

    /// The error that stopped the query, or `nil` while it runs.
    public var error: (any Error)? {
        registrar.access(self, keyPath: \.error)
        lock.lock()
        defer { lock.unlock() }
        return storedError
    }

    /// Whether a fetch completed: ``value`` is no longer the initial value.
    public var isLoaded: Bool {
        registrar.access(self, keyPath: \.isLoaded)
        lock.lock()
        defer { lock.unlock() }
        return storedIsLoaded
    }

    /// Stops the query: ``value`` keeps its last value.
    public func cancel() {
        lock.lock()
        let token = self.token
        lock.unlock()
        token?.cancel()
    }

    private func setValue(_ value: Value) {
        registrar.withMutation(of: self, keyPath: \.value) {
            lock.lock()
            storedValue = value
            lock.unlock()
        }
        lock.lock()
        let wasLoaded = storedIsLoaded
        lock.unlock()
        if !wasLoaded {
            registrar.withMutation(of: self, keyPath: \.isLoaded) {
                lock.lock()
                storedIsLoaded = true
                lock.unlock()
            }
        }
    }

    private func setError(_ error: any Error) {
        registrar.withMutation(of: self, keyPath: \.error) {
            lock.lock()
            storedError = error
            lock.unlock()
        }
    }

    deinit {
        token?.cancel()
    }
}

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
extension LiveQuery where Value: Equatable {
    /// Starts observing the value `fetch` reads in `writer`; a value equal to the previous one is
    /// not set again.
    public convenience init(
        in writer: some DatabaseWriter,
        initialValue: Value,
        queue: DispatchQueue = .main,
        _ fetch: @escaping @Sendable (Database) throws -> Value
    ) {
        self.init(DatabaseObservation(fetch), in: writer, initialValue: initialValue, queue: queue)
    }
}
