import Foundation
import SlateCore

/// Runs one observation: fetches, delivers, and refetches after the commits that change what the
/// last fetch read. Written once for every ``DatabaseWriter``, over its primitive
/// ``DatabaseReader/schedule(_:cancellation:_:completion:)``:
///
/// 1. On the writer connection, it attaches to the connection's commit tracker, which starts
///    counting commits (and, when polling, reads `PRAGMA data_version`).
/// 2. It reads the commit count, then fetches with a `.read` access (on a pool, a reader's
///    snapshot; on a queue, its one connection) while the connection records the region read.
/// 3. When the region differs from the one registered (always after the first fetch), it sets it
///    on the writer connection, with the commit count read before the fetch: a commit that landed
///    between the fetch's snapshot and the registration notifies at once, so no change is lost.
///    The value is delivered once the region is registered.
/// 4. After each commit that changed the region, the writer connection notifies the runner, which
///    fetches again. Fetches never overlap: a notification during a fetch makes one more fetch
///    after it, so values arrive in commit order and snapshots never go back in time.
final class ObservationRunner<Value: Sendable>: ObservationCancelling, @unchecked Sendable {
    // @unchecked Sendable: every mutable stored property is read and written only while `lock`
    // is held; the others are immutable Sendable values. More than 15 stored properties, on
    // purpose: the steps above share them under the one lock.
    private let lock = NSLock()
    private var writer: (any DatabaseWriter)?
    private let fetchValue: @Sendable (Database) throws -> Value
    private let isDuplicate: (@Sendable (Value, Value) -> Bool)?
    private let pollingInterval: Duration?
    /// Serial, so that callbacks never overlap, even on a concurrent queue.
    private let delivery: DispatchQueue
    private var onChange: (@Sendable (Value) -> Void)?
    private var onError: (@Sendable (any Error) -> Void)?
    private var observer: CommitObserver?
    private var clock: CommitClock?
    private var cancelled = false
    private var isFetching = false
    private var needsFetch = false
    private var lastValue: Value?
    private var registeredRegion: DatabaseRegion?
    private var timer: (any DispatchSourceTimer)?
    private var dataVersion: Int?
    private var isPolling = false
    /// The writer's instrumentation, told about each refetch and each commit that skipped one.
    private let instrumentation: (any DatabaseInstrumentation)?
    private let poolLabel: String?
    private var hasFetched = false

    init(
        observation: DatabaseObservation<Value>,
        writer: any DatabaseWriter,
        queue: DispatchQueue,
        onError: @escaping @Sendable (any Error) -> Void,
        onChange: @escaping @Sendable (Value) -> Void
    ) {
        self.writer = writer
        self.fetchValue = observation.fetch
        self.isDuplicate = observation.isDuplicate
        self.pollingInterval = observation.externalChangesInterval
        self.delivery = DispatchQueue(label: "Slate.DatabaseObservation.delivery", target: queue)
        self.onChange = onChange
        self.onError = onError
        let configuration = (writer as? DatabasePool)?.configuration ?? (writer as? DatabaseQueue)?.configuration
        self.instrumentation = configuration?.instrumentation
        self.poolLabel = configuration?.label
    }

    var isCancelled: Bool {
        lock.lock()
        defer { lock.unlock() }
        return cancelled
    }

    // MARK: Starting

    func start() {
        var onSkippedCommit: (@Sendable () -> Void)?
        if let instrumentation {
            let pool = poolLabel
            onSkippedCommit = { instrumentation.record(.liveQueryRefetchSkipped(pool: pool)) }
        }
        let observer = CommitObserver(
            onChange: { [weak self] in self?.databaseDidChange() }, onSkippedCommit: onSkippedCommit)
        lock.lock()
        self.observer = observer
        let writer = self.writer
        let polls = pollingInterval != nil
        lock.unlock()
        writer?.schedule(
            .writeWithoutTransaction, cancellation: nil,
            { db in
                guard let clock = db.attachCommitObserver(observer) else { throw Database.closedConnectionError() }
                let version = polls ? try db.fetchValue(Int.self, sql: "PRAGMA data_version") : nil
                return StartState(clock: clock, dataVersion: version)
            },
            completion: { [self] result in
                switch result {
                case .failure(let error):
                    fail(error)
                case .success(let state):
                    lock.lock()
                    guard !cancelled else {
                        lock.unlock()
                        return
                    }
                    clock = state.clock
                    dataVersion = state.dataVersion
                    isFetching = true
                    lock.unlock()
                    startPolling()
                    fetch()
                }
            })
    }

    private struct StartState: Sendable {
        let clock: CommitClock
        let dataVersion: Int?
    }

    // MARK: Fetching

    /// Fetches on a `.read` access, recording the region. The caller set `isFetching`.
    private func fetch() {
        lock.lock()
        guard !cancelled, let writer, let clock else {
            lock.unlock()
            return
        }
        needsFetch = false
        let refetch = hasFetched ? instrumentation : nil
        hasFetched = true
        lock.unlock()
        refetch?.record(.liveQueryRefetch(pool: poolLabel))
        // Read before the snapshot begins: every commit counted by then is in the snapshot.
        let since = clock.commitCount
        let fetchValue = self.fetchValue
        writer.schedule(
            .read, cancellation: nil,
            { db in
                try db.trackingRegion { try fetchValue(db) }
            },
            completion: { [self] result in
                didFetch(result, since: since)
            })
    }

    private func didFetch(_ result: Result<(value: Value, region: DatabaseRegion), any Error>, since: Int) {
        let fetched: (value: Value, region: DatabaseRegion)
        switch result {
        case .failure(let error):
            fail(error)
            return
        case .success(let value):
            fetched = value
        }
        lock.lock()
        guard !cancelled else {
            lock.unlock()
            return
        }
        var delivers = true
        if let isDuplicate {
            if let lastValue, isDuplicate(lastValue, fetched.value) { delivers = false }
            lastValue = fetched.value
        }
        let regionChanged = fetched.region != registeredRegion
        if regionChanged { registeredRegion = fetched.region }
        let writer = self.writer
        let observer = self.observer
        lock.unlock()

        let value = delivers ? fetched.value : nil
        guard regionChanged, let writer, let observer else {
            finishFetch(delivering: value)
            return
        }
        // The value goes out once the region is registered: from then on, every commit that
        // changes it notifies. The fetch is not over until then (a notification during the
        // registration makes one more fetch), so that values keep their order.
        let region = fetched.region
        writer.schedule(
            .writeWithoutTransaction, cancellation: nil,
            { db in
                db.setObservedRegion(region, for: observer, since: since)
            },
            completion: { [self] result in
                if case .failure(let error) = result {
                    fail(error)
                    return
                }
                finishFetch(delivering: value)
            })
    }

    /// Delivers a fetched value (`nil` when it is not delivered), then fetches again when a
    /// notification came during the fetch.
    private func finishFetch(delivering value: Value?) {
        lock.lock()
        guard !cancelled else {
            lock.unlock()
            return
        }
        if let value {
            delivery.async { [self] in
                lock.lock()
                let onChange = cancelled ? nil : self.onChange
                lock.unlock()
                onChange?(value)
            }
        }
        let fetchesAgain = needsFetch
        if !fetchesAgain { isFetching = false }
        lock.unlock()
        if fetchesAgain { fetch() }
    }

    /// Called on the writer connection's thread after a commit that changed the region.
    private func databaseDidChange() {
        lock.lock()
        guard !cancelled else {
            lock.unlock()
            return
        }
        if isFetching {
            needsFetch = true
            lock.unlock()
            return
        }
        isFetching = true
        lock.unlock()
        fetch()
    }

    // MARK: Polling for other connections' writes

    private func startPolling() {
        guard let pollingInterval else { return }
        let timer = DispatchSource.makeTimerSource(queue: .global())
        let interval = DispatchTimeInterval.nanoseconds(Self.nanoseconds(pollingInterval))
        timer.schedule(deadline: .now() + interval, repeating: interval)
        timer.setEventHandler { [weak self] in self?.poll() }
        lock.lock()
        guard !cancelled else {
            lock.unlock()
            return
        }
        self.timer = timer
        lock.unlock()
        timer.resume()
    }

    private func poll() {
        lock.lock()
        guard !cancelled, !isPolling, let writer else {
            lock.unlock()
            return
        }
        isPolling = true
        lock.unlock()
        writer.schedule(
            .writeWithoutTransaction, cancellation: nil,
            { db in
                try db.fetchValue(Int.self, sql: "PRAGMA data_version")
            },
            completion: { [self] result in
                switch result {
                case .failure(let error):
                    fail(error)
                case .success(let version):
                    lock.lock()
                    isPolling = false
                    let changed = version != dataVersion
                    dataVersion = version
                    lock.unlock()
                    if changed { databaseDidChange() }
                }
            })
    }

    /// `duration` in nanoseconds, clamped to what a dispatch interval holds.
    static func nanoseconds(_ duration: Duration) -> Int {
        let (seconds, attoseconds) = duration.components
        let limit = Int64(Int.max / 1_000_000_000 - 1)
        let clampedSeconds = min(max(seconds, 0), limit)
        return Int(clampedSeconds) * 1_000_000_000 + Int(max(attoseconds, 0) / 1_000_000_000)
    }

    // MARK: Ending

    /// Delivers the error, then ends the observation.
    private func fail(_ error: any Error) {
        lock.lock()
        guard !cancelled else {
            lock.unlock()
            return
        }
        let onError = self.onError
        lock.unlock()
        cancel()
        delivery.async { onError?(error) }
    }

    func cancel() {
        lock.lock()
        guard !cancelled else {
            lock.unlock()
            return
        }
        cancelled = true
        let writer = self.writer
        let observer = self.observer
        self.writer = nil
        self.observer = nil
        onChange = nil
        onError = nil
        lastValue = nil
        timer?.cancel()
        timer = nil
        lock.unlock()
        guard let writer, let observer else { return }
        writer.schedule(
            .writeWithoutTransaction, cancellation: nil,
            { db in
                db.detachCommitObserver(observer)
            }, completion: { _ in })
    }
}
