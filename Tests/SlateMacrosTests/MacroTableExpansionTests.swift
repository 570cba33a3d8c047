import SwiftSyntaxMacrosGenericTestSupport
import Testing

/// `@Table` expansions of table-level features: full-text search, column groups, constraints and
/// foreign keys, renames, the database file and public access, one test per feature.
@Suite struct MacroTableExpansionTests {
    @Test func fullTextSearchMakesAnFTS5Table() {
        assertTableExpansion(
            """
            @Table("post_search", fullTextSearch: "content='post', content_rowid='id'")
            struct PostSearch {
                var title: String
                @Column("full text") var body: String?
            }
            """,
            expandedSource: #"""
                struct PostSearch {
                    var title: String
                    var body: String?
                }

                nonisolated extension PostSearch: Slate.Table {
                    static let schema = Slate.TableSchema(
                        name: "post_search", kind: .virtual(module: "fts5", arguments: #"title, "full text", content='post', content_rowid='id'"#),
                        columns: [
                            .init(name: "title"),
                            .init(name: "full text"),
                        ])

                    struct Columns: Slate.FullTextColumns {
                        let rowid: Slate.Column<PostSearch, Int64>
                        let title: Slate.Column<PostSearch, String>
                        let body: Slate.Column<PostSearch, String?>

                        init(qualifier: String) {
                            self.rowid = Slate.Column(qualifier, "rowid")
                            self.title = Slate.Column(qualifier, "title")
                            self.body = Slate.Column(qualifier, "full text")
                        }
                    }

                    init(row: borrowing Slate.Row) throws {
                        self.init(
                            title: try row.decode(at: 0),
                            body: try row.decode(at: 1))
                    }

                    func encode<Encoder: Slate.ColumnEncoder>(to encoder: inout Encoder) throws(Encoder.Failure) {
                        try encoder.encode(self.title)
                        try encoder.encode(self.body)
                    }
                }
                """#)
    }

    @Test func columnGroupsAndGroupedProperties() {
        assertTableExpansion(
            """
            @ColumnGroup
            struct Address {
                var street: String
                @Column("town") var city: String?
            }
            """,
            expandedSource: #"""
                struct Address {
                    var street: String
                    var city: String?
                }

                nonisolated extension Address: Slate.ColumnGroup {
                    static let groupColumns: [Slate.TableSchema.Column] = [
                        .init(name: "street", type: "TEXT", isNotNull: true),
                        .init(name: "town", type: "TEXT"),
                    ]

                    struct Columns<Root: Slate.Table>: Sendable {
                        let street: Slate.Column<Root, String>
                        let city: Slate.Column<Root, String?>

                        init(qualifier: String) {
                            self.street = Slate.Column(qualifier, "street")
                            self.city = Slate.Column(qualifier, "town")
                        }
                    }

                    init(row: borrowing Slate.Row, startingAt index: Int) throws {
                        self.init(
                            street: try row.decode(at: index),
                            city: try row.decode(at: index + 1))
                    }

                    func encode<Encoder: Slate.ColumnEncoder>(to encoder: inout Encoder) throws(Encoder.Failure) {
                        try encoder.encode(self.street)
                        try encoder.encode(self.city)
                    }
                }
                """#)
        assertTableExpansion(
            """
            @Table
            struct Shop {
                var id: Int64?
                @Grouped var address: Address
                var name: String
            }
            """,
            expandedSource: #"""
                struct Shop {
                    var id: Int64?
                    var address: Address
                    var name: String
                }

                nonisolated extension Shop: Slate.Table, Slate.PrimaryKeyedTable, Slate.SelfManagingTable {
                    static let schema = Slate.TableSchema(
                        name: "Shop",
                        columns: [
                            .init(name: "id", type: "INTEGER", primaryKeyPosition: 1),
                        ] + Address.groupColumns + [
                            .init(name: "name", type: "TEXT", isNotNull: true),
                        ])

                    struct Columns: Slate.TableColumns {
                        let id: Slate.Column<Shop, Int64?>
                        let address: Address.Columns<Shop>
                        let name: Slate.Column<Shop, String>

                        init(qualifier: String) {
                            self.id = Slate.Column(qualifier, "id")
                            self.address = Address.Columns(qualifier: qualifier)
                            self.name = Slate.Column(qualifier, "name")
                        }
                    }

                    init(row: borrowing Slate.Row) throws {
                        self.init(
                            id: try row.decode(at: 0),
                            address: try Address(row: row, startingAt: 1),
                            name: try row.decode(at: 1 + Address.groupColumns.count))
                    }

                    func encode<Encoder: Slate.ColumnEncoder>(to encoder: inout Encoder) throws(Encoder.Failure) {
                        try encoder.encode(self.id)
                        try self.address.encode(to: &encoder)
                        try encoder.encode(self.name)
                    }

                    mutating func didInsert(rowID: Int64) throws {
                        self.id = rowID
                    }

                    var primaryKey: Int64? {
                        self.id
                    }
                }
                """#)
    }

    @Test func uniqueIndexedAndForeignKeys() {
        assertTableExpansion(
            """
            @Table
            struct Album {
                var id: Int64?
                @Unique var code: String
                @Indexed var title: String
                @ForeignKey(Artist.self, onDelete: .cascade) var artistId: Int64
                @ForeignKey(table: "Label", column: "code", onUpdate: .cascade) var labelCode: String?
            }
            """,
            expandedSource: #"""
                struct Album {
                    var id: Int64?
                    var code: String
                    var title: String
                    var artistId: Int64
                    var labelCode: String?
                }

                nonisolated extension Album: Slate.Table, Slate.PrimaryKeyedTable, Slate.SelfManagingTable {
                    static let schema = Slate.TableSchema(
                        name: "Album",
                        columns: [
                            .init(name: "id", type: "INTEGER", primaryKeyPosition: 1),
                            .init(name: "code", type: "TEXT", isNotNull: true, isUnique: true),
                            .init(name: "title", type: "TEXT", isNotNull: true),
                            .init(name: "artistId", type: "INTEGER", isNotNull: true),
                            .init(name: "labelCode", type: "TEXT"),
                        ],
                        foreignKeys: [
                            .init(columns: ["artistId"], referencedTable: Artist.tableName, onDelete: .cascade),
                            .init(columns: ["labelCode"], referencedTable: "Label", referencedColumns: ["code"], onUpdate: .cascade),
                        ],
                        indexes: [
                            .init(name: "Album_title", columns: ["title"]),
                        ])

                    struct Columns: Slate.TableColumns {
                        let id: Slate.Column<Album, Int64?>
                        let code: Slate.Column<Album, String>
                        let title: Slate.Column<Album, String>
                        let artistId: Slate.Column<Album, Int64>
                        let labelCode: Slate.Column<Album, String?>

                        init(qualifier: String) {
                            self.id = Slate.Column(qualifier, "id")
                            self.code = Slate.Column(qualifier, "code")
                            self.title = Slate.Column(qualifier, "title")
                            self.artistId = Slate.Column(qualifier, "artistId")
                            self.labelCode = Slate.Column(qualifier, "labelCode")
                        }

                        var artist: Slate.BelongsTo<Album, Artist> {
                            .belongsTo(id.qualifier)
                        }
                    }

                    init(row: borrowing Slate.Row) throws {
                        self.init(
                            id: try row.decode(at: 0),
                            code: try row.decode(at: 1),
                            title: try row.decode(at: 2),
                            artistId: try row.decode(at: 3),
                            labelCode: try row.decode(at: 4))
                    }

                    func encode<Encoder: Slate.ColumnEncoder>(to encoder: inout Encoder) throws(Encoder.Failure) {
                        try encoder.encode(self.id)
                        try encoder.encode(self.code)
                        try encoder.encode(self.title)
                        try encoder.encode(self.artistId)
                        try encoder.encode(self.labelCode)
                    }

                    mutating func didInsert(rowID: Int64) throws {
                        self.id = rowID
                    }

                    var primaryKey: Int64? {
                        self.id
                    }
                }
                """#)
    }

    @Test func renamedColumnsAndDatabaseFile() {
        assertTableExpansion(
            """
            @Table(databaseFile: "notes.sqlite")
            struct Note {
                @Column(renamedFrom: "noteId") var id: Int64?
                @Column(renamedFrom: "text") var body: String
            }
            """,
            expandedSource: #"""
                struct Note {
                    var id: Int64?
                    var body: String
                }

                nonisolated extension Note: Slate.Table, Slate.PrimaryKeyedTable, Slate.SelfManagingTable {
                    static let schema = Slate.TableSchema(
                        name: "Note",
                        columns: [
                            .init(name: "id", type: "INTEGER", primaryKeyPosition: 1),
                            .init(name: "body", type: "TEXT", isNotNull: true),
                        ])

                    struct Columns: Slate.TableColumns {
                        let id: Slate.Column<Note, Int64?>
                        let body: Slate.Column<Note, String>

                        init(qualifier: String) {
                            self.id = Slate.Column(qualifier, "id")
                            self.body = Slate.Column(qualifier, "body")
                        }
                    }

                    init(row: borrowing Slate.Row) throws {
                        self.init(
                            id: try row.decode(at: 0),
                            body: try row.decode(at: 1))
                    }

                    func encode<Encoder: Slate.ColumnEncoder>(to encoder: inout Encoder) throws(Encoder.Failure) {
                        try encoder.encode(self.id)
                        try encoder.encode(self.body)
                    }

                    mutating func didInsert(rowID: Int64) throws {
                        self.id = rowID
                    }

                    var primaryKey: Int64? {
                        self.id
                    }

                    static let renamedColumns: [String: String] = ["id": "noteId", "body": "text"]

                    static let databaseFile: String? = "notes.sqlite"
                }
                """#)
    }

    @Test func publicTypesGetPublicMembers() {
        assertTableExpansion(
            """
            @Table
            public struct Tag {
                public var id: Int64?
                public var `default`: Bool
            }
            """,
            expandedSource: #"""
                public struct Tag {
                    public var id: Int64?
                    public var `default`: Bool
                }

                nonisolated extension Tag: Slate.Table, Slate.PrimaryKeyedTable, Slate.SelfManagingTable {
                    public static let schema = Slate.TableSchema(
                        name: "Tag",
                        columns: [
                            .init(name: "id", type: "INTEGER", primaryKeyPosition: 1),
                            .init(name: "default", type: "INTEGER", isNotNull: true),
                        ])

                    public struct Columns: Slate.TableColumns {
                        public let id: Slate.Column<Tag, Int64?>
                        public let `default`: Slate.Column<Tag, Bool>

                        public init(qualifier: String) {
                            self.id = Slate.Column(qualifier, "id")
                            self.`default` = Slate.Column(qualifier, "default")
                        }
                    }

                    public init(row: borrowing Slate.Row) throws {
                        self.init(
                            id: try row.decode(at: 0),
                            default: try row.decode(at: 1))
                    }

                    public func encode<Encoder: Slate.ColumnEncoder>(to encoder: inout Encoder) throws(Encoder.Failure) {
                        try encoder.encode(self.id)
                        try encoder.encode(self.`default`)
                    }

                    public mutating func didInsert(rowID: Int64) throws {
                        self.id = rowID
                    }

                    public var primaryKey: Int64? {
                        self.id
                    }
                }
                """#)
    }
}
