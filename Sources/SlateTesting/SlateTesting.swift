// SlateTesting: `import SlateTesting` in a test target brings the tools for testing code that uses
// Slate — fixture copies, seeded databases and the rest of SlateTestingCore.
//
// The DocC article "Testing apps that use Slate" (Sources/Slate/Documentation.docc) shows them.

@_exported import SlateTestingCore
