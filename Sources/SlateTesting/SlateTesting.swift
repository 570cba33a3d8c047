// SlateTesting: support for testing code that uses Slate. `import SlateTesting` brings in:
// - the fault-injecting VFS and fault sweeps (`FaultInjector`, `FaultSweep`, `FaultScenario`;
//   target SlateTestingFaults, issue 34, docs/RELIABILITY.md).
@_exported import SlateTestingFaults
