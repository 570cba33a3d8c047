import Foundation
import SlateSync

extension SlateFuzzCommand {
    static func converge(_ options: inout [String: [String]]) throws -> Int32 {
        var run = SyncConvergence.Options()
        run.replicas = try number(&options, "replicas", run.replicas)
        run.writes = try number(&options, "writes", run.writes)
        run.kills = try number(&options, "kills", run.kills)
        run.seed = try number(&options, "seed", run.seed)
        if let policy = take(&options, "policy") {
            guard ["row", "column"].contains(policy) else {
                throw UsageError("--policy is row or column, not \(policy)")
            }
            run.policy = policy == "row" ? .lastWriterWinsPerRow : .lastWriterWinsPerColumn
        }
        if let url = take(&options, "url") {
            guard let parsed = URL(string: url) else { throw UsageError("--url \(url) is not a URL") }
            run.serverURL = parsed
        }
        if let directory = take(&options, "directory") { run.directory = URL(fileURLWithPath: directory) }
        try rejectLeftovers(options)
        guard (1...16).contains(run.replicas) else { throw UsageError("--replicas wants 1 to 16") }
        run.executable = executable()
        let settings = run
        print(
            "slate-fuzz converge: \(run.replicas) replicas, \(run.writes) writes, \(run.kills) killed syncs, "
                + "policy \(run.policy == .lastWriterWinsPerRow ? "row" : "column"), seed \(run.seed)"
                + (run.serverURL.map { ", through \($0)" } ?? ", in-memory transport"))
        let report = try blocking { try await SyncConvergence.run(settings) { print("  \($0)") } }
        print(report)
        return report.isClean ? 0 : 1
    }

    static func convergeChild(_ options: [String: [String]]) throws -> Never {
        let flattened = options.compactMapValues(\.last)
        try blocking { try await SyncConvergence.child(flattened) }
    }

    /// Runs async work from the synchronous command line and waits for it.
    private static func blocking<Value: Sendable>(_ work: @escaping @Sendable () async throws -> Value) throws -> Value
    {
        let box = ResultBox<Value>()
        let done = DispatchSemaphore(value: 0)
        Task {
            do { box.result = .success(try await work()) } catch { box.result = .failure(error) }
            done.signal()
        }
        done.wait()
        guard let result = box.result else { throw UsageError("the work ended without a result") }
        return try result.get()
    }
}

/// The result handed from a task to the thread that waits for it.
private final class ResultBox<Value: Sendable>: @unchecked Sendable {
    // @unchecked Sendable: written once before the semaphore is signalled, read after.
    var result: Result<Value, any Error>?
}
