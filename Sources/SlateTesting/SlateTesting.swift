// SlateTesting: `import SlateTesting` in a test target brings the tools for testing code that uses
// Slate: SlateTestingCore (fixture copies, seeded databases, dumps, the migration check, SQL laid out
// one clause per line, result tables) and `assertQuery`, and swift-snapshot-testing's
// `InlineSnapshotTesting` and `SnapshotTesting`, whose `withSnapshotTesting(record:)` and
// `assertSnapshot(of:as:)` (with the `.dump` strategy) go with them.
//
// The DocC article "Testing apps that use Slate" (Sources/Slate/Documentation.docc) shows them.

@_exported import InlineSnapshotTesting
@_exported import SlateTestingCore
