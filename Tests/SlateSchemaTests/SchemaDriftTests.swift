import Foundation
import Slate
import SlateSchema
import SlateTestSupport
import Testing

/// `DatabaseSchema.differences(from:)`: what `slate check` reports.
@Suite("Schema drift between two schemas")
struct SchemaDriftTests {
    static let expected = """
        CREATE TABLE artist (id INTEGER PRIMARY KEY, name TEXT NOT NULL, born DATE DEFAULT (date('now')));
        CREATE TABLE album (id INTEGER PRIMARY KEY, artist_id INTEGER NOT NULL REFERENCES artist (id), title TEXT NOT NULL);
        CREATE INDEX album_by_title ON album (title) WHERE title != '';
        CREATE VIRTUAL TABLE album_search USING fts5(title, content='album');
        CREATE VIEW album_titles AS SELECT album.title, artist.name FROM album JOIN artist ON artist.id = album.artist_id;
        CREATE TRIGGER artist_named AFTER INSERT ON artist BEGIN UPDATE artist SET name = trim(name) WHERE id = new.id; END;
        """

    func schema(_ sql: String) throws -> DatabaseSchema {
        let scratch = try TemporaryDirectory()
        defer { scratch.remove() }
        return try SchemaLoader.load(from: [try scratch.write("schema.sql", sql)])
    }

    func differences(_ actual: String) throws -> [SchemaDifference] {
        try schema(Self.expected).differences(from: schema(actual))
    }

    @Test func spellingIsNeverADifference() throws {
        #expect(try differences(Self.expected) == [])
        let cosmetic = """
            -- the same schema, spelled otherwise
            CREATE TABLE IF NOT EXISTS "Artist" ( ID integer PRIMARY KEY , "NAME" text not null ,
              born date default ( DATE( 'now' ) ) );
            create table [ALBUM] (
              [id] INTEGER primary key, /* the key */
              artist_id integer NOT NULL references "ARTIST",
              `title` TEXT NOT NULL
            );
            create index Album_By_Title on album ( TITLE ) where "title" <> '';
            create virtual table ALBUM_SEARCH using FTS5 ( title , content = 'album' );
            create view "Album_Titles" as select ALBUM.TITLE, Artist.Name from Album join ARTIST on Artist.ID = Album.Artist_ID;
            create trigger if not exists Artist_Named after insert on Artist begin
              update ARTIST set NAME = TRIM(name) where ID = NEW.ID;
            end;
            """
        #expect(try differences(cosmetic) == [])
    }

    @Test func realDifferencesAreReportedPerTableAndColumn() throws {
        let changed = """
            CREATE TABLE artist (id INTEGER PRIMARY KEY, name TEXT, born TEXT, country TEXT);
            CREATE TABLE album (id INTEGER PRIMARY KEY, artist_id INTEGER NOT NULL, title TEXT NOT NULL);
            CREATE INDEX album_by_title ON album (title);
            CREATE TABLE label (id INTEGER PRIMARY KEY);
            CREATE VIEW album_titles AS SELECT album.title FROM album;
            CREATE VIEW extra_view AS SELECT 1;
            CREATE TRIGGER artist_named AFTER INSERT ON artist BEGIN UPDATE artist SET name = upper(name) WHERE id = new.id; END;
            CREATE TRIGGER extra_trigger AFTER DELETE ON album BEGIN SELECT 1; END;
            """
        let found = try differences(changed).map(\.description)
        let expected = [
            "foreign key (artist_id) of album is missing: (artist_id) REFERENCES artist (id)",
            "table album album_by_title: index expected (title) WHERE title != '', found (title)",
            "table album_search is missing",
            "column artist.name: nullability expected NOT NULL, found nullable",
            "column artist.born: type affinity expected DATE, found TEXT",
            "column artist.born: default expected date('now'), found none",
            "column artist.country is not expected (found TEXT)",
            "table label is not expected",
            "column album_titles.name is missing (expected TEXT)",
            "view album_titles: its query differs",
            "view extra_view is not expected",
            "trigger artist_named on artist: its definition differs",
            "trigger extra_trigger on album is not expected",
        ]
        for line in expected { #expect(found.contains(line), "\(line)") }
        #expect(found.count == expected.count, "\(found)")
    }

    @Test func aReferenceDatabaseAndItsSQLAgree() throws {
        let northwind = SampleData.url("northwind.sqlite")
        let fromFile = try SchemaLoader.loadDatabase(at: northwind)
        let fromSQL = try SchemaLoader.load(from: [SampleData.url("northwind.schema.sql")])
        #expect(fromSQL.differences(from: fromFile) == [])
        #expect(fromFile.differences(from: fromSQL) == [])
        let chinook = try SchemaLoader.loadDatabase(at: SampleData.url("chinook.sqlite"))
        let across = fromFile.differences(from: chinook)
        #expect(across.contains { $0.kind == .missingTable && $0.table == "Orders" })
        #expect(across.contains { $0.kind == .extraTable && $0.table == "Track" })
    }
}
