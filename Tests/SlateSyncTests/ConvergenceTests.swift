import Foundation
import SlateFuzzing
import SlateSync
import Testing

/// Short runs of `slate-fuzz converge` (the long ones are in .ci/fuzz.sh): random writes on several
/// replicas, a lossy network, syncs killed with SIGKILL; everything must converge and every write be
/// accounted for.
@Suite struct ConvergenceTests {
    @Test(arguments: [SyncConfiguration.Policy.lastWriterWinsPerRow, .lastWriterWinsPerColumn])
    func replicasConvergeOverALossyNetwork(policy: SyncConfiguration.Policy) async throws {
        var options = SyncConvergence.Options()
        options.replicas = 3
        options.writes = 300
        options.kills = 0
        options.seed = 35
        options.policy = policy
        let report = try await SyncConvergence.run(options)
        #expect(report.isClean, "\(report)")
        #expect(report.writes == 300)
        #expect(report.logEntries > 0)
        #expect(report.syncsFailedByTheNetwork > 0)
        #expect(report.rows > 0)
    }

    @Test func theSameSeedRunsTheSameConvergence() async throws {
        var options = SyncConvergence.Options()
        options.replicas = 3
        options.writes = 150
        options.kills = 0
        options.seed = 7
        let first = try await SyncConvergence.run(options)
        let second = try await SyncConvergence.run(options)
        #expect(first.isClean && second.isClean)
        #expect(first.logEntries == second.logEntries)
        #expect(first.rows == second.rows)
        #expect(first.overridden == second.overridden)
        #expect(first.unresolvable == second.unresolvable)
        #expect(first.syncsFailedByTheNetwork == second.syncsFailedByTheNetwork)
    }

    @Test func replicasConvergeWhenSyncsAreKilled() async throws {
        // The child is the slate-fuzz executable, built next to the tests.
        let directory = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
        let executable = directory.appendingPathComponent("slate-fuzz")
        try #require(
            FileManager.default.isExecutableFile(atPath: executable.path), "build slate-fuzz first (swift build)")
        var options = SyncConvergence.Options()
        options.replicas = 3
        options.writes = 300
        options.kills = 8
        options.seed = 13
        options.executable = executable
        let report = try await SyncConvergence.run(options)
        #expect(report.isClean, "\(report)")
        #expect(report.childrenKilled > 0)
    }
}
