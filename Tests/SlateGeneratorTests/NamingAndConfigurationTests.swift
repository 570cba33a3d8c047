import Foundation
import Slate
import SlateGenerator
import SlateSchema
import Testing

@Suite("Naming")
struct NamingTests {
    @Test func wordsSplitAtSeparatorsAndCaseChanges() {
        #expect(Naming.words("Order Details") == ["Order", "Details"])
        #expect(Naming.words("order_details") == ["order", "details"])
        #expect(Naming.words("OrderDetails") == ["Order", "Details"])
        #expect(Naming.words("customer_ID") == ["customer", "ID"])
        #expect(Naming.words("URLString") == ["URL", "String"])
        #expect(Naming.words("ship/via-code") == ["ship", "via", "code"])
        #expect(Naming.words("Sales for 1997") == ["Sales", "for", "1997"])
    }

    @Test func identifiersAreValidAndReadable() {
        #expect(Naming.typeName("order details") == "OrderDetails")
        #expect(Naming.typeName("2fa") == "T2fa")
        #expect(Naming.typeName("") == "Unnamed")
        #expect(Naming.propertyName("CustomerID") == "customerID")
        #expect(Naming.propertyName("ID") == "id")
        #expect(Naming.propertyName("URL") == "url")
        #expect(Naming.propertyName("Unit/Price") == "unitPrice")
        #expect(Naming.propertyName("2fa") == "_2fa")
        #expect(Naming.propertyName("first name") == "firstName")
        #expect(Naming.escaped("default") == "`default`")
        #expect(Naming.escaped("name") == "name")
        #expect(Naming.snakeName("OrderDetail") == "order_detail")
    }

    @Test func pluralsAndSingulars() {
        #expect(Naming.singular("Customers") == "Customer")
        #expect(Naming.singular("Categories") == "Category")
        #expect(Naming.singular("Order Details") == "Order Detail")
        #expect(Naming.singular("Addresses") == "Address")
        #expect(Naming.singular("people") == "person")
        #expect(Naming.singular("Status") == "Status")
        #expect(Naming.singular("Data") == "Data")
        #expect(Naming.singular("Artist") == "Artist")
        #expect(Naming.plural("Artist") == "Artists")
        #expect(Naming.plural("Category") == "Categories")
        #expect(Naming.plural("Box") == "Boxes")
        #expect(Naming.plural("Person") == "People")
        #expect(Naming.plural("Customers") == "Customers")
        #expect(Naming.plural("Key") == "Keys")
        #expect(Naming.plural("SalesFor1997") == "SalesFor1997")
        // -f, -fe: "shelves" is not the plural of "shelve" (a peer-shaped schema's table).
        #expect(Naming.singular("shelves") == "shelf")
        #expect(Naming.singular("BookShelves") == "BookShelf")
        #expect(Naming.plural("Shelf") == "Shelves")
        #expect(Naming.singular("valves") == "valve")
    }

    @Test func generatedNamesNeverCollide() throws {
        let source = try CodeGenerator.generate(inputs: [TestFiles.fixture("awkward_names.sql")])
        // Talent and Talents are both tables: each keeps a distinct record type.
        #expect(source.contains("struct Talent: Table"))
        #expect(source.contains("struct Talents: Table"))
        #expect(source.contains("        Talent.self,\n"))
        #expect(source.contains("        Talents.self,\n"))
        // Table names that are Slate or Swift types get a suffix.
        #expect(source.contains("struct ColumnRecord: PrimaryKeyedTable"))
        #expect(source.contains("struct SelectRecord: Table"))
        // Keywords are escaped; `self`, `let` and names of members are renamed.
        #expect(source.contains("var `class`: String?"))
        #expect(source.contains("var selfValue: Int64?"))
        #expect(source.contains("var letValue: Int64?"))
        #expect(source.contains("var primaryKeyValue: String?"))
        #expect(source.contains("var name2: String?"))  // "name_" clashes with "Name"
        #expect(source.contains("var _2fa: Int64?"))
        #expect(source.contains("var unitPrice: Double?"))
        // Quotes in names are quoted in SQL and escaped in Swift.
        #expect(source.contains(#"name: "with \"quotes\"""#))
        // Raw function names are unique too.
        let raw = try CodeGenerator.generate(
            inputs: [TestFiles.fixture("awkward_names.sql")],
            configuration: {
                var c = GeneratorConfiguration()
                c.style = .raw
                return c
            }())
        #expect(raw.contains("func sqlite3_talent_find") == false)  // no key
        #expect(raw.contains("func sqlite3_talents_fetch("))
        #expect(raw.contains("func sqlite3_talents_all_fetch("))
        #expect(!raw.contains("talents0"))
    }

    @Test func recordsNeverShadowTheSlateTypesGeneratedCodeUses() throws {
        // Slate's public type names, from the sources of every runtime layer.
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        var slateTypes: Set<String> = []
        let pattern = /public (?:final )?(?:struct|class|enum|protocol|typealias|actor) ([A-Za-z0-9_]+)/
        for layer in ["Slate", "SlateCore", "SlateConcurrency", "SlateQuery", "SlateRecords"] {
            let enumerator = FileManager.default.enumerator(
                at: root.appendingPathComponent("Sources/" + layer), includingPropertiesForKeys: nil)
            while let url = enumerator?.nextObject() as? URL {
                guard url.pathExtension == "swift" else { continue }
                let text = try String(contentsOf: url, encoding: .utf8)
                for match in text.matches(of: pattern) { slateTypes.insert(String(match.1)) }
            }
        }
        #expect(slateTypes.contains("Table"))
        // The Slate types that generated code names, in every style.
        var used: Set<String> = ["Database", "Table", "Column", "Row", "Statement"]
        for fixture in TestFiles.fixtureScripts {
            for style in GeneratorConfiguration.Style.allCases {
                var configuration = GeneratorConfiguration()
                configuration.style = style
                configuration.uuidStorage = .blob
                configuration.dateStorage = .unixSeconds
                let source = try CodeGenerator.generate(inputs: [fixture], configuration: configuration)
                // Whole identifiers: `orderIndex` (a peer schema's column) does not use `Index`.
                for match in source.matches(of: /\b[A-Z][A-Za-z0-9_]*\b/) where slateTypes.contains(String(match.0)) {
                    used.insert(String(match.0))
                }
            }
        }
        // A table named like any of them gets another record name.
        for name in used.sorted() {
            let source = try CodeGenerator.generate(
                schema: DatabaseSchema(tables: [.init(name: name, columns: [.init(name: "x", type: "TEXT")])]),
                options: GenerationOptions(databaseTypeName: "ProbeDatabase", source: .sqlScripts))
            #expect(!source.contains("\nstruct \(name): "), "a table named \(name) would shadow Slate's \(name)")
        }
    }
}

@Suite("Configuration")
struct ConfigurationTests {
    @Test func everyKeyIsOptionalAndUnknownKeysAreErrors() throws {
        let empty = try JSONDecoder().decode(GeneratorConfiguration.self, from: Data("{}".utf8))
        #expect(empty == GeneratorConfiguration())
        #expect(empty.style == .slate)
        #expect(empty.singularizeRecordNames)
        #expect(empty.dateStorage == .connection)
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(GeneratorConfiguration.self, from: Data(#"{"nestRecord": true}"#.utf8))
        }
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(
                GeneratorConfiguration.self, from: Data(#"{"columnTypes": {"t.c": "Money"}}"#.utf8))
        }
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = try directory.write("slate.json", "{ not json")
        #expect(throws: GeneratorError.self) { try GeneratorConfiguration.load(from: file) }
    }

    static func generate(_ sql: String, _ json: String) throws -> String {
        let configuration = try JSONDecoder().decode(GeneratorConfiguration.self, from: Data(json.utf8))
        let db = try Slate.Database(location: .inMemory)
        try SchemaLoader.apply(sql, file: "test.sql", to: db)
        return try CodeGenerator.generate(
            schema: try SchemaReader.read(from: db),
            options: GenerationOptions(
                configuration: configuration, databaseTypeName: "TestDatabase", source: .sqlScripts))
    }

    @Test func typeMappingByColumnThenSuffixThenDeclaredType() throws {
        let sql = """
            CREATE TABLE item (
              id INTEGER PRIMARY KEY, price NUMERIC, created_at TEXT, home_url TEXT, token BLOB, done BOOLEAN,
              day DATE, raw_day DATE, flag INTEGER, note VARCHAR(10), untyped
            );
            """
        let source = try Self.generate(
            sql,
            """
            {"declaredTypes": {"NUMERIC": "Decimal", "VARCHAR(10)": "String"},
             "columnSuffixes": {"_at": "Date", "_url": "URL", "token": "UUID"},
             "columnTypes": {"item.flag": "Bool", "item.raw_day": "String"}}
            """)
        #expect(source.contains("var price: Decimal?"))
        #expect(source.contains("var createdAt: Date?"))
        #expect(source.contains("var homeUrl: URL?"))
        #expect(source.contains("var token: UUID?"))
        #expect(source.contains("var done: Bool?"))  // built in: BOOLEAN
        #expect(source.contains("var day: Date?"))  // built in: DATE
        #expect(source.contains("var rawDay: String?"))  // the column rule wins
        #expect(source.contains("var flag: Bool?"))
        #expect(source.contains("var note: String?"))
        #expect(source.contains("var untyped: SQLValue?"))
        let raw = try Self.generate(sql, #"{"style": "raw"}"#)
        #expect(raw.contains("var untyped: String?"))  // no SQLValue without Slate
    }

    @Test func storageStylesForDatesAndUUIDs() throws {
        let sql = "CREATE TABLE event (id UUID PRIMARY KEY NOT NULL, at DATETIME NOT NULL, other UUID);"
        let slate = try Self.generate(sql, #"{"dateStorage": "unixSeconds", "uuidStorage": "blob"}"#)
        #expect(slate.contains("at: try row.date(at: 1, strategy: .unixSeconds)"))
        #expect(slate.contains("try encoder.encode(EncodedDate(self.at, strategy: DateStrategy.unixSeconds))"))
        #expect(slate.contains("try encoder.encode(UUIDStorage.blob.sqlValue(for: self.id))"))
        #expect(slate.contains("try encoder.encode(UUIDStorage.blob.sqlValue(for: key))"))
        // Typed columns carry the storage, so compared values are stored the same way.
        #expect(slate.contains(#"self.at = Column(qualifier, "at", storage: .date(.unixSeconds))"#))
        #expect(slate.contains(#"self.other = Column(qualifier, "other", storage: .uuid(.blob))"#))
        let raw = try Self.generate(sql, #"{"style": "raw", "dateStorage": "julianDay", "uuidStorage": "blob"}"#)
        // SQLite converts: the Swift code binds seconds and reads seconds.
        #expect(raw.contains("slateRawBind(statement, index + 1, self.at, .julianDay)"))
        #expect(raw.contains(#"VALUES (?1, ?2 / 86400.0 + 2440587.5, ?3)"#))
        #expect(raw.contains(#"CASE WHEN typeof("at") IN ('integer', 'real') THEN ("at" - 2440587.5) * 86400.0 WHEN"#))
        #expect(raw.contains("guard let value1 = slateRawDate(statement, 1) else { return nil }"))
        #expect(raw.contains("slateRawBindUUIDBytes(statement, index + 2, self.other)"))

        // One column can be stored differently ("table.column", case-insensitive).
        let mixed = #"{"dateStorage": "julianDay", "columnDateStorage": {"EVENT.At": "unixMilliseconds"}}"#
        #expect(try Self.generate(sql, mixed).contains("at: try row.date(at: 1, strategy: .unixMilliseconds)"))
        let mixedRaw = try Self.generate(
            sql, #"{"style": "raw", "columnDateStorage": {"event.at": "unixMilliseconds"}}"#)
        #expect(mixedRaw.contains("slateRawBind(statement, index + 1, self.at, .unixMilliseconds)"))
        #expect(mixedRaw.contains(#"THEN "at" / 1000.0 WHEN"#))
        #expect(throws: (any Error).self) {
            try JSONDecoder().decode(
                GeneratorConfiguration.self, from: Data(#"{"columnDateStorage": {"event.at": "weekly"}}"#.utf8))
        }
    }

    @Test func namingAccessLevelAndOutputs() throws {
        let sql =
            "CREATE TABLE people (id INTEGER PRIMARY KEY, name TEXT); CREATE VIEW names AS SELECT name FROM people;"
        let source = try Self.generate(
            sql,
            """
            {"accessLevel": "public", "singularizeRecordNames": false,
             "includeViews": false, "recordOperations": false, "documentation": false,
             "propertyNames": {"people.name": "fullName"}, "nestRecords": true}
            """)
        #expect(source.contains("public struct People: PrimaryKeyedTable"))
        #expect(source.contains("public static let tables: [any Table.Type] = [\n        TestDatabase.People.self,"))
        #expect(source.contains("public var fullName: Optional<String>"))
        #expect(source.contains("extension TestDatabase {\n    /// ") == false)
        #expect(!source.contains("///"))
        #expect(!source.contains("struct Name"))
        #expect(!source.contains("func insert(into db: Database)"))
        let excluded = try Self.generate(sql, #"{"excludedTables": ["PEOPLE"]}"#)
        #expect(!excluded.contains("struct Person"))
        #expect(excluded.contains("struct Name: Table"))
    }
}

@Suite("Schema text in generated comments")
struct GeneratedCommentTests {
    /// A quoted SQLite name may hold any line break; Swift ends a `///` comment at `\r` as well as
    /// `\n`, so a name written into a comment unsplit would turn the rest of it into code.
    @Test func lineBreaksInNamesNeverEndAComment() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let schema = try directory.write(
            "schema.sql",
            "CREATE TABLE \"x\rfunc pwned() {} //\"(id INTEGER PRIMARY KEY, \"a\r\nb\" TEXT, \"c\u{2028}d\" TEXT);")
        let generated = try CodeGenerator.generate(inputs: [schema])
        #expect(!generated.unicodeScalars.contains("\r"))
        #expect(!generated.unicodeScalars.contains("\u{2028}"))
        let lines = generated.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(!lines.contains { $0.hasPrefix("func pwned") })
        #expect(lines.contains { $0.hasPrefix("///") && $0.contains("func pwned") })
    }

    /// Tables named like Swift keywords get record types whose names compile.
    @Test func keywordTableNamesGetUsableRecordNames() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let schema = try directory.write(
            "schema.sql",
            "CREATE TABLE extension(id INTEGER PRIMARY KEY); CREATE TABLE \"default\"(id INTEGER PRIMARY KEY);")
        let generated = try CodeGenerator.generate(inputs: [schema], configuration: GeneratorConfiguration())
        #expect(generated.contains("struct Extension: PrimaryKeyedTable"))
        #expect(generated.contains("struct Default: PrimaryKeyedTable"))
        #expect(generated.contains(#"name: "extension""#))
        #expect(generated.contains(#"name: "default""#))
    }

    @Test func configuredNamesMustBeSwiftIdentifiers() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let schema = try directory.write("schema.sql", "CREATE TABLE t(c INTEGER);")
        for (records, properties) in [(["t": "My Type"], [String: String]()), ([:], ["t.c": "two words"])] {
            var configuration = GeneratorConfiguration()
            configuration.recordNames = records
            configuration.propertyNames = properties
            do {
                _ = try CodeGenerator.generate(inputs: [schema], configuration: configuration)
                Issue.record("\(records) \(properties) should be rejected")
            } catch let error as GeneratorError {
                #expect("\(error)".contains(records.isEmpty ? "\"two words\"" : "\"My Type\""))
            }
        }
    }
}
