import Foundation
import SlateCore

/// The read-only connections of a ``DatabasePool``: opened on demand up to a maximum, handed out
/// one per read in request order, and closed when idle.
///
/// Requests are callbacks, so waiting for a reader blocks no thread; the blocking API waits on a
/// semaphore on top. A barrier stops handing out readers and waits until every reader is back.
final class ReaderPool: @unchecked Sendable {
    // @unchecked Sendable: every mutable stored property is read and written only while
    // `condition` is locked; the readers themselves are `Sendable`.
    typealias Handler = @Sendable (Result<SerializedConnection, any Error>) -> Void

    /// How many readers may be open at once.
    let maximumCount: Int
    private let idleTimeout: TimeInterval?
    private let label: String
    private let ownerKey: DispatchSpecificKey<Void>
    private let openDatabase: @Sendable () throws -> Database
    /// Told the number of open readers after it changed, when the pool has an instrumentation.
    private let countDidChange: (@Sendable (Int) -> Void)?

    private let condition = NSCondition()
    private var idle: [SerializedConnection] = []
    private var openCount = 0
    private var busyCount = 0
    private var waiters: [Handler] = []
    private var isBarrierActive = false
    private var activityGeneration = 0

    private enum Grant {
        case existing(SerializedConnection)
        case new
    }

    /// Creates an empty pool whose readers come from `openDatabase`; their queues are tagged with
    /// `ownerKey`.
    init(
        maximumCount: Int,
        idleTimeout: TimeInterval?,
        label: String,
        ownerKey: DispatchSpecificKey<Void>,
        openDatabase: @escaping @Sendable () throws -> Database,
        countDidChange: (@Sendable (Int) -> Void)? = nil
    ) {
        self.maximumCount = maximumCount
        self.idleTimeout = idleTimeout
        self.label = label
        self.ownerKey = ownerKey
        self.openDatabase = openDatabase
        self.countDidChange = countDidChange
    }

    /// The number of open readers, busy or idle.
    var openReaderCount: Int {
        condition.lock()
        defer { condition.unlock() }
        return openCount
    }

    /// Whether a barrier holds new reads back (for tests and diagnostics).
    var hasActiveBarrier: Bool {
        condition.lock()
        defer { condition.unlock() }
        return isBarrierActive
    }

    /// Calls `handler` with a reader as soon as one is free (maybe at once, on this thread). The
    /// receiver must give it back with ``release(_:)``.
    func acquire(_ handler: @escaping Handler) {
        condition.lock()
        waiters.append(handler)
        let grants = takeGrantsLocked()
        condition.unlock()
        deliver(grants)
    }

    /// Waits for a reader.
    func acquire() throws -> SerializedConnection {
        let semaphore = DispatchSemaphore(value: 0)
        let box = ResultBox<SerializedConnection>()
        acquire { result in
            box.set(result)
            semaphore.signal()
        }
        semaphore.wait()
        return try box.get()
    }

    /// Gives a reader back.
    func release(_ reader: SerializedConnection) {
        condition.lock()
        busyCount -= 1
        idle.append(reader)
        activityGeneration += 1
        let grants = takeGrantsLocked()
        if busyCount == 0 {
            condition.broadcast()
            scheduleIdleDrainLocked()
        }
        condition.unlock()
        deliver(grants)
    }

    /// Stops handing out readers and waits until every reader is back.
    func beginBarrier() {
        condition.lock()
        isBarrierActive = true
        while busyCount > 0 { condition.wait() }
        condition.unlock()
    }

    /// Hands out readers again, to the requests that waited first.
    func endBarrier() {
        condition.lock()
        isBarrierActive = false
        let grants = takeGrantsLocked()
        condition.unlock()
        deliver(grants)
    }

    /// Closes the idle readers. Busy readers are kept and return to the pool when done.
    func releaseIdleReaders() {
        condition.lock()
        let drained = idle
        idle.removeAll()
        openCount -= drained.count
        let count = openCount
        condition.unlock()
        // The readers close as `drained` goes out of scope, outside the lock.
        _ = drained
        if !drained.isEmpty { countDidChange?(count) }
    }

    /// Pairs waiting requests with free readers, or with room to open new ones.
    private func takeGrantsLocked() -> [(Handler, Grant)] {
        var grants: [(Handler, Grant)] = []
        while !isBarrierActive, !waiters.isEmpty {
            if let reader = idle.popLast() {
                grants.append((waiters.removeFirst(), .existing(reader)))
            } else if openCount < maximumCount {
                openCount += 1
                grants.append((waiters.removeFirst(), .new))
            } else {
                break
            }
            busyCount += 1
        }
        return grants
    }

    /// Calls the granted requests' handlers, opening new readers where needed. Runs unlocked.
    private func deliver(_ grants: [(Handler, Grant)]) {
        for (handler, grant) in grants {
            switch grant {
            case .existing(let reader):
                handler(.success(reader))
            case .new:
                let reader: SerializedConnection
                do {
                    reader = SerializedConnection(database: try openDatabase(), label: label, ownerKey: ownerKey)
                } catch {
                    condition.lock()
                    openCount -= 1
                    busyCount -= 1
                    if busyCount == 0 { condition.broadcast() }
                    let more = takeGrantsLocked()
                    condition.unlock()
                    handler(.failure(error))
                    deliver(more)
                    continue
                }
                if let countDidChange { countDidChange(openReaderCount) }
                handler(.success(reader))
            }
        }
    }

    private func scheduleIdleDrainLocked() {
        guard let idleTimeout else { return }
        let generation = activityGeneration
        DispatchQueue.global().asyncAfter(deadline: .now() + idleTimeout) { [weak self] in
            self?.drainIfIdle(since: generation)
        }
    }

    /// Closes the idle readers if no read started or ended since `generation`.
    private func drainIfIdle(since generation: Int) {
        condition.lock()
        guard generation == activityGeneration, busyCount == 0 else {
            condition.unlock()
            return
        }
        condition.unlock()
        releaseIdleReaders()
    }
}

/// A result set on one thread and read on another, after a semaphore orders the two.
final class ResultBox<Value: Sendable>: @unchecked Sendable {
    // @unchecked Sendable: `result` is only touched while `lock` is held.
    private let lock = NSLock()
    private var result: Result<Value, any Error>?

    func set(_ result: Result<Value, any Error>) {
        lock.lock()
        self.result = result
        lock.unlock()
    }

    func get() throws -> Value {
        lock.lock()
        defer { lock.unlock() }
        guard let result else {
            throw DatabaseError(resultCode: .internal, message: "no result was delivered")
        }
        return try result.get()
    }
}
