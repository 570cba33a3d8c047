import Foundation
import Slate
import SlateTestSupport
import Testing

/// Filtering and counting through associations render the SQL a careful person writes and return
/// the rows that SQL returns; unresolvable associations throw before anything runs.
@Suite struct AssociationFilterTests {
    let db: Database

    init() throws {
        db = try Database.chinook()
    }

    @Test func existsRendersACorrelatedSubquery() throws {
        let query = Artist.where { $0.albums.exists { $0.title.hasPrefix("Live") } }.order(by: \.artistId)
        #expect(
            query.sql.text
                == [
                    #"SELECT "Artist"."ArtistId", "Artist"."Name""#,
                    #"FROM "Artist""#,
                    #"WHERE EXISTS (SELECT 1 FROM "Album" WHERE "Album"."ArtistId" = "Artist"."ArtistId" AND "Album"."Title" GLOB ?)"#,
                    #"ORDER BY "Artist"."ArtistId""#,
                ].joined(separator: " "))
        let expected = try db.fetchAll(
            Int64.self,
            "SELECT ArtistId FROM Artist a WHERE EXISTS (SELECT 1 FROM Album WHERE ArtistId = a.ArtistId AND Title GLOB 'Live*') ORDER BY ArtistId"
        )
        #expect(try query.fetchAll(db).compactMap(\.artistId) == expected)
        #expect(!expected.isEmpty)
    }

    @Test func notExistsFindsParentsWithoutChildren() throws {
        let lonely = try Artist.where { !$0.albums.exists() }.fetchCount(db)
        let expected = try db.fetchValue(
            Int.self, "SELECT count(*) FROM Artist WHERE ArtistId NOT IN (SELECT ArtistId FROM Album)")
        #expect(lonely == expected)
        #expect(lonely > 0)
        // A nullable foreign key (ReportsTo) does not turn NOT EXISTS into NULL for everyone.
        let withoutReports = try Employee.where { !$0.reports.exists() }.fetchCount(db)
        #expect(withoutReports == 5)
    }

    @Test func countAnnotatesFiltersAndOrders() throws {
        let query = Artist.where { $0.albums.count() >= 5 }.order { ($0.albums.count().descending(), $0.artistId) }
            .select { ($0.name, $0.albums.count()) }
        #expect(
            query.sql.text
                == [
                    #"SELECT "Artist"."Name", (SELECT count(*) FROM "Album" WHERE "Album"."ArtistId" = "Artist"."ArtistId")"#,
                    #"FROM "Artist""#,
                    #"WHERE (SELECT count(*) FROM "Album" WHERE "Album"."ArtistId" = "Artist"."ArtistId") >= ?"#,
                    #"ORDER BY (SELECT count(*) FROM "Album" WHERE "Album"."ArtistId" = "Artist"."ArtistId") DESC, "Artist"."ArtistId""#,
                ].joined(separator: " "))
        let rows = try query.fetchAll(db)
        let expected = try db.fetchAll(
            Int.self,
            "SELECT count(*) AS n FROM Album GROUP BY ArtistId HAVING n >= 5 ORDER BY n DESC, ArtistId")
        #expect(rows.map(\.1) == expected)
    }

    @Test func selfReferenceTakesAnAlias() throws {
        let query = Employee.where { $0.reports.count() >= 2 }.select { $0.employeeId }
        #expect(
            query.sql.text.contains(
                #"(SELECT count(*) FROM "Employee" AS "Employee_2" WHERE "Employee_2"."ReportsTo" = "Employee"."EmployeeId")"#
            ))
        let expected = try db.fetchAll(
            Int64?.self,
            "SELECT EmployeeId FROM Employee e WHERE (SELECT count(*) FROM Employee r WHERE r.ReportsTo = e.EmployeeId) >= 2"
        )
        #expect(try query.fetchAll(db) == expected)
        #expect(expected.count == 3)
    }

    @Test func throughTheLinkingTable() throws {
        let query = Playlist.where { $0.tracks.exists { $0.name.hasPrefix("Z") } }.select { $0.playlistId }
        #expect(
            query.sql.text.contains(
                #"EXISTS (SELECT 1 FROM "Track" JOIN "PlaylistTrack" ON "PlaylistTrack"."TrackId" = "Track"."TrackId" WHERE "PlaylistTrack"."PlaylistId" = "Playlist"."PlaylistId" AND "Track"."Name" GLOB ?)"#
            ))
        let expected = try db.fetchAll(
            Int64?.self,
            """
            SELECT PlaylistId FROM Playlist p WHERE EXISTS (
              SELECT 1 FROM PlaylistTrack pt JOIN Track t ON t.TrackId = pt.TrackId
              WHERE pt.PlaylistId = p.PlaylistId AND t.Name GLOB 'Z*')
            """)
        #expect(try query.fetchAll(db) == expected)
        #expect(!expected.isEmpty)
    }

    @Test func havingOverAnAssociationInAGroupedQuery() throws {
        let query = Album.group(by: \.artistId).having { $0.artist.exists { $0.name.hasPrefix("A") } }
            .select { ($0.artistId, count()) }
        let expected = try db.fetchAll(
            Int64.self,
            """
            SELECT al.ArtistId FROM Album al GROUP BY al.ArtistId
            HAVING EXISTS (SELECT 1 FROM Artist ar WHERE ar.ArtistId = al.ArtistId AND ar.Name GLOB 'A*')
            """)
        #expect(try query.fetchAll(db).map(\.0) == expected)
    }

    // MARK: Errors

    @Test func aMissingForeignKeyThrowsBeforeAnythingRuns() throws {
        var texts: [String] = []
        let observation = db.trace(.statement) {
            if case .statement(let statement) = $0 { texts.append(statement.sql) }
        }
        defer { observation.cancel() }
        let error = #expect(throws: DatabaseError.self) {
            _ = try Artist.all().including(all: \.genres).fetchAll(db)
        }
        #expect(error?.resultCode == .misuse)
        #expect(error?.message.contains("Genre has no foreign key to Artist") == true)
        #expect(texts.isEmpty)
        #expect(throws: DatabaseError.self) { _ = try Artist.where { $0.genres.exists() }.fetchAll(db) }
        #expect(texts.isEmpty)
    }

    /// Every other way an association's key can be missing throws the same way, whatever uses it:
    /// an eager load, a filter or a count; no statement runs.
    @Test func everyMissingKeyThrowsMisuseBeforeAnythingRuns() throws {
        var texts: [String] = []
        let observation = db.trace(.statement) {
            if case .statement(let statement) = $0 { texts.append(statement.sql) }
        }
        defer { observation.cancel() }
        func misuse(_ body: () throws -> Void) -> String? {
            let error = #expect(throws: DatabaseError.self) { try body() }
            #expect(error?.resultCode == .misuse)
            return error?.message
        }
        // BelongsTo: the origin has no key to the target.
        let belongsTo = misuse { _ = try Album.all().including(optional: \.genreWithoutKey).fetchAll(db) }
        #expect(belongsTo?.contains("Album has no foreign key to Genre") == true)
        // Through a linking table that has no key to the origin.
        let through = misuse { _ = try Artist.all().including(all: \.playlistsWithoutKey).fetchAll(db) }
        #expect(through?.contains("PlaylistTrack has no foreign key to Artist") == true)
        #expect(misuse { _ = try Artist.where { $0.playlistsWithoutKey.exists() }.fetchCount(db) } != nil)
        // Columns named for a key that the target does not declare.
        let named = misuse { _ = try Artist.all().including(all: \.albumsByTitle).fetchAll(db) }
        #expect(named?.contains("Album has no foreign key to Artist through (Title)") == true)
        #expect(misuse { _ = try Artist.all().select { ($0.name, $0.albumsByTitle.count()) }.fetchAll(db) } != nil)
        // An explicit key naming a column the target does not have.
        let explicit = misuse { _ = try Artist.all().including(all: \.albumsByMissingColumn).fetchAll(db) }
        #expect(explicit?.contains("Album has no column Nope") == true)
        #expect(texts.isEmpty)
    }

    @Test func anAmbiguousForeignKeyThrowsNamingTheCandidates() throws {
        let db = try Database.memory()
        try db.createTable(for: Person.self)
        try db.createTable(for: Loan.self)
        var texts: [String] = []
        let observation = db.trace(.statement) {
            if case .statement(let statement) = $0 { texts.append(statement.sql) }
        }
        defer { observation.cancel() }
        let error = #expect(throws: DatabaseError.self) {
            _ = try Person.all().including(all: \.loans) { $0.including(required: \.lenderAmbiguous) }.fetchAll(db)
        }
        #expect(error?.resultCode == .misuse)
        #expect(error?.message.contains("Loan has 2 foreign keys to Person") == true)
        #expect(texts.isEmpty)
        // Named, each works.
        try db.execute(sql: "INSERT INTO Person VALUES (1, 'Ann'), (2, 'Bob')")
        try db.execute(sql: "INSERT INTO Loan VALUES (1, 1, 2), (2, 2, 1), (3, 1, 1)")
        let borrowed = try Person.all().order(by: \.id).including(all: \.borrowed) { $0.order(by: \.id) }.fetchAll(db)
        #expect(borrowed.map { $0.1.map(\.id) } == [[1, 3], [2]])
        let lent = try Loan.all().order(by: \.id).including(required: \.lenderNamed).fetchAll(db)
        #expect(lent.map(\.1.name) == ["Bob", "Ann", "Ann"])
    }
}

// MARK: - Tables for the error cases

extension Artist.Columns {
    /// No foreign key links Genre with Artist.
    fileprivate var genres: HasMany<Artist, Genre> { .hasMany(artistId.qualifier) }
    /// PlaylistTrack has no foreign key to Artist.
    fileprivate var playlistsWithoutKey: HasMany<Artist, Playlist> {
        .hasMany(artistId.qualifier, through: PlaylistTrack.self)
    }
    /// Album's key to Artist is `ArtistId`, not `Title`.
    fileprivate var albumsByTitle: HasMany<Artist, Album> { .hasMany(artistId.qualifier, foreignKey: ["Title"]) }
    /// A key Album's schema does not declare, on a column Album does not have.
    fileprivate var albumsByMissingColumn: HasMany<Artist, Album> {
        .hasMany(artistId.qualifier, using: .init(columns: ["Nope"], referencedTable: "Artist"))
    }
}

extension Album.Columns {
    /// Album has no foreign key to Genre.
    fileprivate var genreWithoutKey: BelongsTo<Album, Genre> { .belongsTo(albumId.qualifier) }
}

/// Two foreign keys to `Person`: a `Loan`'s borrower and lender.
private struct Person: PrimaryKeyedTable, Equatable {
    var id: Int64
    var name: String
    static let schema = TableSchema(
        name: "Person",
        columns: [.init(name: "id", type: "INTEGER", primaryKeyPosition: 1), .init(name: "name", type: "TEXT")])
    struct Columns: TableColumns {
        let id: Column<Person, Int64>
        let name: Column<Person, String>
        init(qualifier: String) {
            id = Column(qualifier, "id")
            name = Column(qualifier, "name")
        }
        /// Ambiguous: Loan has two foreign keys to Person.
        var loans: HasMany<Person, Loan> { .hasMany(id.qualifier) }
        var borrowed: HasMany<Person, Loan> { .hasMany(id.qualifier, foreignKey: ["borrower"]) }
    }
    init(row: borrowing Row) throws {
        id = try row.decode(at: 0)
        name = try row.decode(at: 1)
    }
    func encode<Encoder: ColumnEncoder>(to encoder: inout Encoder) throws(Encoder.Failure) {
        try encoder.encode(id)
        try encoder.encode(name)
    }
    var primaryKey: Int64 { id }
}

private struct Loan: PrimaryKeyedTable, Equatable {
    var id: Int64
    var borrower: Int64
    var lender: Int64
    static let schema = TableSchema(
        name: "Loan",
        columns: [
            .init(name: "id", type: "INTEGER", primaryKeyPosition: 1), .init(name: "borrower", type: "INTEGER"),
            .init(name: "lender", type: "INTEGER"),
        ],
        foreignKeys: [
            .init(columns: ["borrower"], referencedTable: "Person"),
            .init(columns: ["lender"], referencedTable: "Person"),
        ])
    struct Columns: TableColumns {
        let id: Column<Loan, Int64>
        let borrower: Column<Loan, Int64>
        let lender: Column<Loan, Int64>
        init(qualifier: String) {
            id = Column(qualifier, "id")
            borrower = Column(qualifier, "borrower")
            lender = Column(qualifier, "lender")
        }
        var lenderAmbiguous: BelongsTo<Loan, Person> { .belongsTo(id.qualifier) }
        var lenderNamed: BelongsTo<Loan, Person> { .belongsTo(id.qualifier, foreignKey: ["lender"]) }
    }
    init(row: borrowing Row) throws {
        id = try row.decode(at: 0)
        borrower = try row.decode(at: 1)
        lender = try row.decode(at: 2)
    }
    func encode<Encoder: ColumnEncoder>(to encoder: inout Encoder) throws(Encoder.Failure) {
        try encoder.encode(id)
        try encoder.encode(borrower)
        try encoder.encode(lender)
    }
    var primaryKey: Int64 { id }
}
