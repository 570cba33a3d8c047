// SlatePostgres: Slate's tables and queries on PostgreSQL, through postgres-nio.
//
// Everything in this module is compiled only with the package's `Postgres` trait, which also
// brings in postgres-nio (and SwiftNIO): without it the module is empty and depends on nothing.
//
//     .package(url: "https://github.com/…/Slate", from: "…", traits: ["Postgres"])
//     .product(name: "SlatePostgres", package: "Slate")
