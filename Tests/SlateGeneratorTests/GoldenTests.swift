import Foundation
import Slate
import SlateGenerator
import SlateSchema
import Testing

/// Generator output for representative schemas, compared with the files in Fixtures.
///
/// After an intended change to the generated code, regenerate the files and review the diff:
///
/// ```sh
/// SLATE_UPDATE_GOLDEN=1 swift test --filter GoldenTests
/// ```
@Suite("GoldenTests")
struct GoldenTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var golden: String
        var input: String
        var configuration: String?
        var testDescription: String { golden }
    }

    static let cases: [Case] = [
        Case(golden: "single_column.golden", input: "single_column.sql"),
        Case(golden: "composite_key.golden", input: "composite_key.sql"),
        Case(golden: "rowid_alias.golden", input: "rowid_alias.sql"),
        Case(golden: "rowid_alias.raw.golden", input: "rowid_alias.sql", configuration: #"{"style": "raw"}"#),
        Case(golden: "wide_table.golden", input: "wide_table.sql"),
        Case(golden: "awkward_names.golden", input: "awkward_names.sql"),
        Case(golden: "aggregate_view.golden", input: "aggregate_view.sql"),
        Case(golden: "uuid_key.golden", input: "uuid_key.sql"),
        Case(golden: "named_queries.golden", input: "named_queries.sql"),
        Case(
            golden: "named_queries.raw.golden", input: "named_queries.sql",
            configuration: #"{"style": "raw", "nestRecords": true}"#),
        Case(
            golden: "named_queries.both.golden", input: "named_queries.sql",
            configuration:
                #"{"style": "both", "accessLevel": "public", "uuidStorage": "blob", "dateStorage": "unixSeconds"}"#),
        Case(
            golden: "uuid_key.both.golden", input: "uuid_key.sql",
            configuration: """
                {"style": "both", "accessLevel": "public", "uuidStorage": "blob", "dateStorage": "unixSeconds",
                 "columnSuffixes": {"homepage": "URL"}, "recordOperations": false}
                """),
        // The benchmark's public generated record (`slate-generated-public` in northwind-orders): the
        // generator's public output for Northwind's `Orders`, kept in the benchmark package by this test.
        Case(
            golden: "../../../Benchmarks/Sources/slate-bench/PublicOrder+Slate.swift",
            input: "benchmark/public_orders.sql",
            configuration: """
                {"accessLevel": "public", "recordNames": {"Orders": "PublicGeneratedOrder"}, "declaredTypes": {"DATETIME": "String"},
                 "columnTypes": {"Orders.OrderID": "Int", "Orders.EmployeeID": "Int", "Orders.ShipVia": "Int"}}
                """),
        // A public generated record that SlateMacroRuntimeTests compiles and decodes.
        Case(
            golden: "../../SlateMacroRuntimeTests/PublicShipments+Slate.swift", input: "public/public_shipments.sql",
            configuration: #"{"accessLevel": "public", "declaredTypes": {"DATETIME": "String"}}"#),
    ]

    static func generate(_ testCase: Case) throws -> String {
        var configuration = GeneratorConfiguration()
        if let json = testCase.configuration {
            configuration = try JSONDecoder().decode(GeneratorConfiguration.self, from: Data(json.utf8))
        }
        return try CodeGenerator.generate(inputs: [TestFiles.fixture(testCase.input)], configuration: configuration)
    }

    @Test(arguments: cases)
    func outputMatchesTheGoldenFile(_ testCase: Case) throws {
        let output = try Self.generate(testCase)
        let url = TestFiles.fixture(testCase.golden)
        if ProcessInfo.processInfo.environment["SLATE_UPDATE_GOLDEN"] != nil {
            try output.write(to: url, atomically: true, encoding: .utf8)
            return
        }
        let expected = try String(contentsOf: url, encoding: .utf8)
        if output != expected {
            let outputLines = output.split(separator: "\n", omittingEmptySubsequences: false)
            let expectedLines = expected.split(separator: "\n", omittingEmptySubsequences: false)
            let first = zip(outputLines, expectedLines).enumerated().first { $0.element.0 != $0.element.1 }
            let line = first?.offset ?? min(outputLines.count, expectedLines.count)
            Issue.record(
                """
                \(testCase.golden) differs from line \(line + 1):
                  expected: \(line < expectedLines.count ? String(expectedLines[line]) : "<end>")
                  actual:   \(line < outputLines.count ? String(outputLines[line]) : "<end>")
                Regenerate with SLATE_UPDATE_GOLDEN=1 if the change is intended.
                """)
        }
    }

    @Test func outputIsDeterministic() throws {
        for testCase in Self.cases {
            #expect(try Self.generate(testCase) == Self.generate(testCase))
        }
        let northwind = TestFiles.resource("northwind.sqlite")
        #expect(try CodeGenerator.generate(inputs: [northwind]) == CodeGenerator.generate(inputs: [northwind]))
    }

    /// The bundled-database accessor: only a database file gets it.
    static func removingBundleAccessor(_ source: String, typeName: String) -> String {
        let start = "\nextension \(typeName) {\n    /// The resource name"
        guard let range = source.range(of: start),
            let end = source.range(of: "\n}\n", range: range.upperBound..<source.endIndex)
        else { return source }
        return String(source[..<range.lowerBound]) + "\n" + String(source[end.upperBound...]).drop { $0 == "\n" }
    }

    @Test(arguments: ["northwind", "chinook"])
    func sqlAndDatabaseFileGenerateTheSameCode(_ name: String) throws {
        for style in GeneratorConfiguration.Style.allCases {
            var configuration = GeneratorConfiguration()
            configuration.style = style
            let typeName = name.prefix(1).uppercased() + name.dropFirst() + "Database"
            let fromFile = try CodeGenerator.generate(
                inputs: [TestFiles.resource("\(name).sqlite")], configuration: configuration)
            let fromSQL = try CodeGenerator.generate(
                inputs: [TestFiles.resource("\(name).schema.sql")], configuration: configuration)
            #expect(!fromSQL.contains("resourceName"))  // .sql never gets a bundled accessor
            if style == .raw {
                #expect(fromFile == fromSQL)
            } else {
                #expect(fromFile.contains("static func bundled(in bundle: Bundle"))
                #expect(!fromFile.contains("static func bundled() throws"))  // Bundle.module only when asked
                #expect(Self.removingBundleAccessor(fromFile, typeName: typeName) == fromSQL)
            }
        }
    }

    /// The raw style's Swift converts nothing by truncation and nothing that can trap: values that
    /// do not fit are refused with a result code or fail to read (the behaviour is tested in
    /// SlateRawGenerationTests and SlateRawInteropTests), and dates are converted by SQLite.
    @Test func rawCodeHasNoTruncatingOrTrappingConversions() throws {
        var configuration = GeneratorConfiguration()
        configuration.style = .raw
        configuration.columnTypes = ["track.milliseconds": .int8, "track.bytes": .uint64, "invoice.total": .float]
        let source =
            try CodeGenerator.generate(inputs: [TestFiles.resource("chinook.sqlite")], configuration: configuration)
            + CodeGenerator.generate(inputs: TestFiles.fixtureScripts, configuration: configuration)
        for forbidden in ["truncatingIfNeeded", "Int32(", "try!", "Decimal(sqlite3_column_double"] {
            #expect(!source.contains(forbidden), "\(forbidden)")
        }
        #expect(source.contains("Int8(exactly: $0)"))
        #expect(source.contains("UInt64(exactly: $0)"))
        // No hand-written date arithmetic: SQLite's date functions convert.
        for removed in ["slateRawParseDate", "slateRawFormatDate", "86_400", "719_468"] {
            #expect(!source.contains(removed), "\(removed)")
        }
        #expect(source.contains("strftime('%Y-%m-%d %H:%M:%f', ?"))
    }

    @Test func moduleBundleAccessorOnlyForDatabaseFiles() throws {
        let database = try CodeGenerator.generate(
            inputs: [TestFiles.resource("chinook.sqlite")], generatesModuleBundleAccessor: true,
            resourceSubdirectory: "Resources")
        #expect(
            database.contains(
                "static func bundled(configuration: Database.Configuration = .init()) throws -> DatabaseQueue"))
        #expect(
            database.contains(#"try bundled(in: .module, subdirectory: "Resources", configuration: configuration)"#))
        let script = try CodeGenerator.generate(
            inputs: [TestFiles.resource("chinook.schema.sql")], generatesModuleBundleAccessor: true)
        #expect(!script.contains("bundled"))
        #expect(!script.contains("Bundle.module"))
    }

    @Test func docCommentsStateTypeNullabilityAndTheRealDefault() throws {
        let source = try Self.generate(Case(golden: "", input: "uuid_key.sql"))
        #expect(source.contains("/// Column `id` (`UUID`), the primary key, required (`NOT NULL`), no SQL default."))
        #expect(source.contains("/// Column `name` (`TEXT`), required (`NOT NULL`), no SQL default."))
        #expect(source.contains("/// Column `active` (`BOOLEAN`), required (`NOT NULL`), SQL default `1`."))
        #expect(source.contains("/// Column `mentor_id` (`UUID`), optional (`NULL` allowed), no SQL default."))
        // An internal record keeps the synthesized memberwise initializer: the stored properties
        // carry the defaults, and `init(row:)` decodes through it.
        #expect(source.contains("// Required: `name`."))
        #expect(source.contains("var id: UUID = UUID()\n"))
        #expect(source.contains("var mentorId: UUID?\n"))
        #expect(source.contains("mentorId: try row.decode(at: "))
        #expect(!source.contains("self.mentorId = try"))
        // NOT NULL DEFAULT CURRENT_TIMESTAMP: `nil` lets the default apply; the typed column is not optional.
        #expect(source.contains("var createdAt: Date?\n"))
        #expect(source.contains("`NOT NULL`: `nil` lets the SQL default apply"))
        #expect(
            source.contains("let createdAt: Column<TalentProfile, Date>")
                || source.contains("Column<UuidKey.TalentProfile, Date>"))
        let rowid = try Self.generate(Case(golden: "", input: "rowid_alias.sql"))
        #expect(
            rowid.contains(
                "/// Column `id` (`INTEGER`), the primary key: an alias of the rowid, `nil` until the record is inserted, when SQLite assigns it."
            ))
        #expect(rowid.contains("/// Column `id` (`BIGINT`), the primary key, required (`NOT NULL`), no SQL default."))
        #expect(rowid.contains("var id: Int64\n"))  // BIGINT PRIMARY KEY NOT NULL: required, no default
    }

    /// Text UUIDs in a column without `COLLATE NOCASE` get a warning (the fixtures have three, on
    /// purpose); 16-byte blobs have no letter case, and get none.
    @Test func uuidCollationWarningsOnlyForTextStorage() throws {
        let inputs = [TestFiles.fixture("uuid_key.sql"), TestFiles.fixture("named_queries.sql")]
        var warnings: [String] = []
        _ = try CodeGenerator.generate(inputs: inputs, warn: { warnings.append("\($0)") })
        #expect(
            warnings.map { $0.components(separatedBy: " holds UUIDs")[0] } == [
                "warning: column nq_author.token", "warning: column talent_profile.id",
                "warning: column talent_profile.mentor_id",
            ])
        #expect(warnings.allSatisfy { $0.hasSuffix("declare it COLLATE NOCASE") })
        var configuration = GeneratorConfiguration()
        configuration.uuidStorage = .blob
        for style in GeneratorConfiguration.Style.allCases {
            configuration.style = style
            var blobWarnings: [String] = []
            _ = try CodeGenerator.generate(
                inputs: inputs, configuration: configuration, warn: { blobWarnings.append("\($0)") })
            #expect(blobWarnings.isEmpty, "\(style)")
        }
    }

    @Test func largeSchemasGenerateEveryTable() throws {
        // 300 tables of 20 columns and one table of 500 columns.
        var sql = ""
        for table in 0..<300 {
            sql += "CREATE TABLE t\(table) (id INTEGER PRIMARY KEY"
            for column in 0..<20 { sql += ", c\(column) TEXT" }
            sql += ");\n"
        }
        sql += "CREATE TABLE huge (id INTEGER PRIMARY KEY" + (0..<500).map { ", c\($0) INTEGER" }.joined() + ");\n"
        let db = try Slate.Database(location: .inMemory)
        try SchemaLoader.apply(sql, file: "big.sql", to: db)
        let schema = try SchemaReader.read(from: db)
        // Generation speed is measured in Benchmarks/, not asserted here.
        let source = try CodeGenerator.generate(
            schema: schema, options: GenerationOptions(databaseTypeName: "BigDatabase", source: .sqlScripts))
        #expect(source.contains("struct Huge: PrimaryKeyedTable"))
        #expect(source.contains("struct T299: PrimaryKeyedTable"))
        #expect(source.contains("c499"))
    }
}
