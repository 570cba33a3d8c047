// SlateTesting: `import SlateTesting` in a test target brings the tools for testing code that uses
// Slate: SlateTestingCore (fixture copies, seeded databases, dumps, the migration check, SQL laid out
// one clause per line, result tables) and `assertQuery`, swift-snapshot-testing's
// `InlineSnapshotTesting` and `SnapshotTesting`, whose `withSnapshotTesting(record:)` and
// `assertSnapshot(of:as:)` (with the `.dump` strategy) go with them, and the fault-injecting VFS with
// its fault sweeps (`FaultInjector`, `FaultSweep`, `FaultScenario`; target SlateTestingFaults, issue
// 34, docs/RELIABILITY.md).
//
// The DocC article "Testing apps that use Slate" (Sources/Slate/Documentation.docc) shows them.

@_exported import InlineSnapshotTesting
@_exported import SlateTestingCore
@_exported import SlateTestingFaults
