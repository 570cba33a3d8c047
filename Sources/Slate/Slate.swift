// Slate: `import Slate` brings every runtime layer. Each is also a product of its own:
//
// - SlateCore: the SQLite C-API wrapper (connections, statements, values, rows, transactions).
// - SlateConcurrency: DatabaseQueue, DatabasePool, the migrator.
// - SlateQuery: the table model (TableSchema, Table) and the query builder.
// - SlateRecords: Codable records, self-managing tables, record stores, CSV.

@_exported import SlateConcurrency
@_exported import SlateCore
@_exported import SlateQuery
@_exported import SlateRecords
