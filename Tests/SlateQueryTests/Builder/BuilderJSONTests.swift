import Foundation
import Slate
import SlateTestSupport
import SlateTestingCore
import Testing

/// `->>`, `json_extract`, `json_each`, `json_group_array` and `json_object`.
@Suite struct BuilderJSONTests {
    static func gadgets() throws -> Database {
        let db = try Database()
        try db.createTable(for: Gadget.self)
        try db.insert(contentsOf: [
            Gadget(specs: .init(brand: "Acme", weight: 120, colors: ["red", "blue"]), tags: #"["new","sale"]"#),
            Gadget(specs: .init(brand: "Globex", weight: 80, colors: []), tags: #"["sale"]"#),
            Gadget(specs: .init(brand: "Acme", weight: 300, colors: ["black"]), tags: nil),
        ])
        return db
    }

    @Test func pathsAreBoundAndTyped() throws {
        let query = Gadget.where { $0.specs.json("$.brand", as: String.self) == "Acme" }
            .order { $0.specs.json("$.weight", as: Int64.self).descending() }
            .select {
                (
                    $0.id, $0.specs.jsonExtract("$.colors[0]", as: String.self),
                    $0.specs.json("$.colors", as: String.self).jsonArrayLength()
                )
            }
        #expect(
            SQLLayout.lines(query.sql) == """
                SELECT "gadget"."id", json_extract("gadget"."specs", ?), json_array_length("gadget"."specs" ->> ?)
                FROM "gadget"
                WHERE "gadget"."specs" ->> ? = ?
                ORDER BY "gadget"."specs" ->> ? DESC
                -- arguments: '$.colors[0]', '$.colors', '$.brand', 'Acme', '$.weight'
                """)
        let db = try Self.gadgets()
        let rows = try query.fetchAll(db)
        #expect(rows.map(\.0) == [3, 1])
        #expect(rows.map(\.1) == ["black", "red"])
        #expect(rows.map(\.2) == [1, 2])
        // A missing path is NULL: the value is optional.
        let missing = try Gadget.select { $0.specs.json("$.nope", as: Int64.self) }.fetchAll(db)
        #expect(missing == [nil, nil, nil])
        // Arithmetic and comparisons on a typed value.
        let heavy = try Gadget.where { $0.specs.json("$.weight", as: Int64.self) > 100 }.select { $0.id }.fetchAll(db)
        #expect(heavy == [1, 3])
    }

    @Test func jsonEachIsATableSource() throws {
        let tagged = Gadget.where { gadget in exists(JSONEach<String>.of(gadget.tags).where { $0.value == "sale" }) }
            .select { $0.id }
        #expect(
            SQLLayout.lines(tagged.sql) == """
                SELECT "gadget"."id"
                FROM "gadget"
                WHERE EXISTS (
                  SELECT "json_each"."key", "json_each"."value", "json_each"."type", "json_each"."fullkey"
                  FROM json_each("gadget"."tags") AS "json_each"
                  WHERE "json_each"."value" = ?
                )
                -- arguments: 'sale'
                """)
        let db = try Self.gadgets()
        #expect(try tagged.fetchAll(db) == [1, 2])
        // The elements themselves, with their keys and types.
        let colors = try Gadget.where { gadget in
            exists(JSONEach<String>.of(gadget.specs.json("$.colors", as: String.self)).where { $0.value == "black" })
        }.select { $0.id }.fetchAll(db)
        #expect(colors == [3])
        let elements = try JSONEach<String>.of(array: ["a", "b"]).fetchAll(db)
        #expect(elements.map(\.value) == ["a", "b"])
        let keys: [SQLValue] = elements.map(\.key)
        #expect(keys == [.integer(0), .integer(1)])
        #expect(elements.map(\.type) == ["text", "text"])
        #expect(elements.map(\.fullKey) == ["$[0]", "$[1]"])
        // A Swift array bound as one value, for IN.
        let ids: [Int64] = [3, 1, 99]
        let inList = Gadget.where { $0.id.in(JSONEach<Int64>.of(array: ids).select { $0.value }) }.order(by: \.id)
            .select { $0.id }
        #expect(
            SQLLayout.lines(inList.sql) == """
                SELECT "gadget"."id"
                FROM "gadget"
                WHERE "gadget"."id" IN (SELECT "json_each"."value" FROM json_each(?) AS "json_each")
                ORDER BY "gadget"."id"
                -- arguments: '[3,1,99]'
                """)
        #expect(try inList.fetchAll(db) == [1, 3])
        // Nested json_each sources get their own aliases.
        let nested = try JSONEach<String>.of(array: ["x"]).where { outer in
            exists(JSONEach<String>.of(array: ["x", "y"]).where { $0.value == outer.value })
        }.fetchAll(db)
        let nestedValues: [String] = nested.map(\.value)
        #expect(nestedValues == ["x"])
    }

    @Test func groupArraysAndObjects() throws {
        let db = try Database.chinook()
        let names = Track.where { $0.albumId == 1 }.order(by: \.trackId).select { $0.name.jsonGroupArray() }
        #expect(
            SQLLayout.lines(names.sql) == """
                SELECT json_group_array("Track"."Name")
                FROM "Track"
                WHERE "Track"."AlbumId" = ?
                ORDER BY "Track"."TrackId"
                -- arguments: 1
                """)
        let array = try #require(try names.fetchOne(db)).value
        let expected = try db.fetchAll(String.self, "SELECT Name FROM Track WHERE AlbumId = 1 ORDER BY TrackId")
        #expect(array == expected)
        // Objects, and an array of objects per group.
        let objects = Artist.where { $0.artistId <= 3 }.order(by: \.artistId)
            .select { jsonObject(as: ArtistSummary.self, ["id": $0.artistId, "name": $0.name]) }
        #expect(
            SQLLayout.lines(objects.sql) == """
                SELECT json_object(?, "Artist"."ArtistId", ?, "Artist"."Name")
                FROM "Artist"
                WHERE "Artist"."ArtistId" <= ?
                ORDER BY "Artist"."ArtistId"
                -- arguments: 'id', 'name', 3
                """)
        #expect(
            try objects.fetchAll(db).map(\.value) == [
                ArtistSummary(id: 1, name: "AC/DC"), ArtistSummary(id: 2, name: "Accept"),
                ArtistSummary(id: 3, name: "Aerosmith"),
            ])
        let grouped = try Album.where { $0.artistId <= 2 }.group(by: \.artistId).order(by: \.artistId)
            .select {
                (
                    $0.artistId,
                    jsonObject(as: ArtistSummary.self, ["id": $0.albumId, "name": $0.title]).jsonGroupArray()
                )
            }
            .fetchAll(db)
        let artistIDs: [Int64] = grouped.map(\.0)
        #expect(artistIDs == [1, 2])
        let albumIDs: [Int64] = grouped[0].1.value.map(\.id).sorted()
        #expect(albumIDs == [1, 4])
        #expect(grouped[1].1.value.map(\.name) == ["Balls to the Wall", "Restless and Wild"])
        // No rows: an empty array.
        #expect(try Track.where { $0.albumId == -1 }.select { $0.name.jsonGroupArray() }.fetchOne(db)?.value == [])
    }
}
