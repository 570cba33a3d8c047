import Foundation
import Slate
import SlateSchema

/// What upgrading an old database with a ``Migrator`` gives, compared with a fresh install: the
/// migrations applied, one at a time, and how the two schemas differ.
///
/// ```swift
/// let check = try migrator.checkUpgrade(ofFile: Fixtures.path("version-1.sqlite"))
/// #expect(check.appliedMigrations == ["v2: add scores", "v3: index names"])
/// #expect(check.differences == [], "\(check.differences)")
/// ```
///
/// A user who installed an old version and upgraded must end with the same schema as a user who
/// installs the new one. A migration that creates a column with another default than the table
/// definition of a fresh install has, an index created only by the fresh path, a view that the
/// upgrade forgot to recreate: each is a ``SchemaDifference``.
public struct MigrationCheck: Sendable, Hashable {
    /// The migrations the upgrade applied, in order, each with a ``Migrator/migrate(_:upTo:)`` of
    /// its own (so each in its own transaction, as an app that upgrades one version at a time
    /// would apply them).
    public var appliedMigrations: [String]
    /// How the upgraded database's schema differs from the fresh install's, which is the expected
    /// one (see `DatabaseSchema.differences(from:)`): tables, columns, types, constraints,
    /// indexes, views and triggers. Empty when they agree.
    public var differences: [SchemaDifference]

    /// Creates a check's outcome.
    public init(appliedMigrations: [String], differences: [SchemaDifference]) {
        self.appliedMigrations = appliedMigrations
        self.differences = differences
    }
}

extension Migrator {
    /// Upgrades an in-memory copy of the database file at `fixture` (a database an older version of
    /// the app made) one registered migration at a time, migrates a fresh in-memory database in
    /// one go, and compares their schemas.
    ///
    /// The fixture itself is never changed.
    ///
    /// - Parameters:
    ///   - fixture: The old database file.
    ///   - configuration: How to open both databases.
    /// - Throws: ``DatabaseError`` when the fixture cannot be read or a migration fails (on the old
    ///   database or the fresh one).
    public func checkUpgrade(
        ofFile fixture: String,
        configuration: Database.Configuration = .init()
    ) throws -> MigrationCheck {
        let old = try Database.inMemoryCopy(ofFile: fixture, configuration: configuration)
        return try checkUpgrade(of: old)
    }

    /// Upgrades `db` one registered migration at a time, migrates a fresh in-memory database
    /// (opened with `db`'s configuration) in one go, and compares their schemas.
    ///
    /// `db` is changed: it ends upgraded.
    ///
    /// - Throws: ``DatabaseError`` when a migration fails, on `db` or on the fresh database.
    public func checkUpgrade(of db: Database) throws -> MigrationCheck {
        let alreadyApplied = Set(try appliedMigrations(in: db))
        var applied: [String] = []
        for identifier in registeredMigrations where !alreadyApplied.contains(identifier) {
            try migrate(db, upTo: identifier)
            applied.append(identifier)
        }
        let fresh = try Database(location: .inMemory, configuration: db.configuration)
        try migrate(fresh)
        let expected = try SchemaReader.read(from: fresh)
        let actual = try SchemaReader.read(from: db)
        return MigrationCheck(appliedMigrations: applied, differences: expected.differences(from: actual))
    }
}
