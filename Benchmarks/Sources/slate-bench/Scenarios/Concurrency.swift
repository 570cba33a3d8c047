import Dispatch
import Foundation
import GRDB
import Slate

// `--concurrency-report` (not a harness scenario: it measures throughput over a window rather than
// timing one region): read throughput of a WAL `DatabasePool` with 1, 2, 4 and 8 concurrent readers
// while one writer commits, Slate's pool against GRDB's, in the same run.
//
// Each reader thread makes a fixed number of reads (`pool.read`, 100 rows of `keyed_item` by key
// range into `[KeyedItem]`, positional decoding); the writer thread commits one-row updates
// (`pool.write`) from just before the readers start until the last one is done. The window is the
// wall time from the readers' start to the last reader's end; reads/s is the readers' total over
// it, commits/s the writer's. Bounded by counts: time only limits a run that stalls (60 s).
enum ConcurrencyReport {
    /// Rows of `keyed_item`; every read takes 100 consecutive keys from a spot that moves with the read.
    static let rowCount = 10_000
    static let rowsPerRead = 100

    static func run(quick: Bool, directory: URL) throws {
        let readsPerReader = quick ? 200 : 2_000
        let cores = ProcessInfo.processInfo.activeProcessorCount
        print("Concurrent reads: a WAL DatabasePool, N reader threads each making \(readsPerReader) reads of")
        print("\(rowsPerRead) rows (`pool.read`, keyed_item by key range into structs) while one writer thread")
        print("commits one-row updates (`pool.write`) until the readers are done. \(cores) cores.")
        print("Both libraries at synchronous = NORMAL, GRDB's pool default (Slate keeps SQLite's FULL).")
        print("")
        print("readers | slate reads/s | grdb reads/s | slate/grdb | slate commits/s | grdb commits/s")
        print("------- | ------------- | ------------ | ---------- | --------------- | --------------")
        let slatePath = directory.appendingPathComponent("c-slate.sqlite").path
        let grdbPath = directory.appendingPathComponent("c-grdb.sqlite").path
        try makeFile(slatePath)
        try makeFile(grdbPath)
        let slate = try Slate.DatabasePool(
            path: slatePath, configuration: Durability.slate(.normal), maximumReaderCount: 8)
        let grdb = try Durability.grdbPool(path: grdbPath, .normal, readers: 8)
        try Durability.check(slate, grdb, .normal)
        for readers in [1, 2, 4, 8] {
            // Alternate which library goes first, as the harness alternates contenders.
            let slateFirst = readers % 4 != 2
            var slateResult = Throughput(reads: 0, commits: 0, seconds: 1)
            var grdbResult = Throughput(reads: 0, commits: 0, seconds: 1)
            for library in slateFirst ? ["slate", "grdb"] : ["grdb", "slate"] {
                if library == "slate" {
                    slateResult = try measure(readers: readers, readsPerReader: readsPerReader) { start in
                        let items = try slate.read { db in
                            try db.fetchAll(
                                KeyedItem.self, sql: KeyedItem.selectRange, arguments: [start, start + rowsPerRead - 1])
                        }
                        guard items.count == rowsPerRead else { throw HarnessError("slate read \(items.count) rows") }
                    } write: { id in
                        try slate.write { db in
                            try db.execute(sql: "UPDATE keyed_item SET i0 = i0 + 1 WHERE id = ?", arguments: [id])
                        }
                    }
                } else {
                    grdbResult = try measure(readers: readers, readsPerReader: readsPerReader) { start in
                        let items = try grdb.read { db in
                            try KeyedItem.fetchAll(
                                db, sql: KeyedItem.selectRange, arguments: [start, start + rowsPerRead - 1])
                        }
                        guard items.count == rowsPerRead else { throw HarnessError("grdb read \(items.count) rows") }
                    } write: { id in
                        try grdb.write { db in
                            try db.execute(sql: "UPDATE keyed_item SET i0 = i0 + 1 WHERE id = ?", arguments: [id])
                        }
                    }
                }
            }
            print(
                "\(readers) | \(Int(slateResult.readsPerSecond)) | \(Int(grdbResult.readsPerSecond)) | "
                    + String(format: "%.2f", slateResult.readsPerSecond / grdbResult.readsPerSecond)
                    + " | \(Int(slateResult.commitsPerSecond)) | \(Int(grdbResult.commitsPerSecond))")
        }
        try fullDurability(readsPerReader: readsPerReader, directory: directory)
    }

    /// One reader beside the writer with both libraries at `synchronous = FULL`, Slate's default:
    /// every commit waits for the disk.
    static func fullDurability(readsPerReader: Int, directory: URL) throws {
        let slatePath = directory.appendingPathComponent("c-slate-full.sqlite").path
        let grdbPath = directory.appendingPathComponent("c-grdb-full.sqlite").path
        try makeFile(slatePath)
        try makeFile(grdbPath)
        let slate = try Slate.DatabasePool(path: slatePath, configuration: Durability.slate(.full))
        let grdb = try Durability.grdbPool(path: grdbPath, .full, readers: 8)
        try Durability.check(slate, grdb, .full)
        let slateResult = try measure(readers: 1, readsPerReader: readsPerReader) { start in
            _ = try slate.read { db in
                try db.fetchAll(
                    KeyedItem.self, sql: KeyedItem.selectRange, arguments: [start, start + rowsPerRead - 1])
            }
        } write: { id in
            try slate.write { db in
                try db.execute(sql: "UPDATE keyed_item SET i0 = i0 + 1 WHERE id = ?", arguments: [id])
            }
        }
        let grdbResult = try measure(readers: 1, readsPerReader: readsPerReader) { start in
            _ = try grdb.read { db in
                try KeyedItem.fetchAll(db, sql: KeyedItem.selectRange, arguments: [start, start + rowsPerRead - 1])
            }
        } write: { id in
            try grdb.write { db in
                try db.execute(sql: "UPDATE keyed_item SET i0 = i0 + 1 WHERE id = ?", arguments: [id])
            }
        }
        print("")
        print("Both at synchronous = FULL (Slate's default: a commit is on disk when it returns), 1 reader:")
        print(
            "  slate \(Int(slateResult.readsPerSecond)) reads/s, \(Int(slateResult.commitsPerSecond)) commits/s"
                + "    grdb \(Int(grdbResult.readsPerSecond)) reads/s, \(Int(grdbResult.commitsPerSecond)) commits/s")
    }

    /// What one measurement counted over its window.
    struct Throughput {
        var reads: Int
        var commits: Int
        var seconds: Double
        var readsPerSecond: Double { Double(reads) / seconds }
        var commitsPerSecond: Double { Double(commits) / seconds }
    }

    /// A WAL file with `keyed_item` filled, made with the C API.
    static func makeFile(_ path: String) throws {
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        let connection = try RawConnection(path: path)
        try connection.execute("PRAGMA journal_mode = WAL")
        try connection.execute(KeyedItem.createTable)
        try connection.transaction {
            try connection.insert((1...rowCount).map { KeyedItem(id: $0, item: Item.generated(row: $0)) })
        }
    }

    /// Runs `readers` reader threads of `readsPerReader` reads each beside one writer thread that
    /// commits until they are done.
    static func measure(
        readers: Int, readsPerReader: Int, read: @escaping @Sendable (Int) throws -> Void,
        write: @escaping @Sendable (Int) throws -> Void
    ) throws -> Throughput {
        let state = RunState()
        let group = DispatchGroup()
        let writerDone = DispatchSemaphore(value: 0)
        let writer = Thread {
            var id = 1
            while !state.readersFinished, state.failure == nil, state.commits < 10_000_000 {
                do {
                    try write(id)
                } catch {
                    state.fail(error)
                }
                state.addCommit()
                id = id % rowCount + 1
            }
            writerDone.signal()
        }
        writer.start()
        let start = ContinuousClock.now
        for reader in 0..<readers {
            group.enter()
            let thread = Thread {
                var spot = (reader * 997) % (rowCount - rowsPerRead)
                for _ in 0..<readsPerReader where state.failure == nil {
                    do {
                        try read(spot + 1)
                    } catch {
                        state.fail(error)
                    }
                    spot = (spot + 131) % (rowCount - rowsPerRead)
                }
                group.leave()
            }
            thread.start()
        }
        guard group.wait(timeout: .now() + 60) == .success else {
            state.finishReaders()
            throw HarnessError("concurrency: the readers did not finish within 60 s")
        }
        let seconds = (ContinuousClock.now - start).seconds
        let commits = state.commits
        state.finishReaders()
        writerDone.wait()
        if let failure = state.failure { throw failure }
        return Throughput(reads: readers * readsPerReader, commits: commits, seconds: seconds)
    }

    /// What the threads of one measurement share, under a lock.
    final class RunState: @unchecked Sendable {
        // @unchecked Sendable: every stored property is only touched while `lock` is held.
        private let lock = NSLock()
        private var finished = false
        private var commitCount = 0
        private var firstFailure: (any Error)?

        var readersFinished: Bool { lock.withLock { finished } }
        var commits: Int { lock.withLock { commitCount } }
        var failure: (any Error)? { lock.withLock { firstFailure } }
        func finishReaders() { lock.withLock { finished = true } }
        func addCommit() { lock.withLock { commitCount += 1 } }
        func fail(_ error: any Error) { lock.withLock { if firstFailure == nil { firstFailure = error } } }
    }
}
