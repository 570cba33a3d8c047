import SwiftSyntaxMacrosGenericTestSupport
import Testing

/// `@Table` expansions, one test per feature.
@Suite struct MacroExpansionTests {
    @Test func integerIDIsTheRowIDKey() {
        assertTableExpansion(
            """
            @Table
            struct Artist {
                var id: Int64?
                var name: String
            }
            """,
            expandedSource: #"""
                struct Artist {
                    var id: Int64?
                    var name: String
                }

                nonisolated extension Artist: Slate.Table, Slate.PrimaryKeyedTable, Slate.SelfManagingTable {
                    static let schema = Slate.TableSchema(
                        name: "Artist",
                        columns: [
                            .init(name: "id", type: "INTEGER", primaryKeyPosition: 1),
                            .init(name: "name", type: "TEXT", isNotNull: true),
                        ])

                    struct Columns: Slate.TableColumns {
                        let id: Slate.Column<Artist, Int64?>
                        let name: Slate.Column<Artist, String>

                        init(qualifier: String) {
                            self.id = Slate.Column(qualifier, "id")
                            self.name = Slate.Column(qualifier, "name")
                        }
                    }

                    init(row: borrowing Slate.Row) throws {
                        self.init(
                            id: try row.decode(at: 0),
                            name: try row.decode(at: 1))
                    }

                    func encode<Encoder: Slate.ColumnEncoder>(to encoder: inout Encoder) throws(Encoder.Failure) {
                        try encoder.encode(self.id)
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

    /// `init(row:)` calls the synthesized memberwise initializer only when the struct surely has
    /// one: a declared initializer (or a property wrapper, `lazy`, a private property, `#if`) keeps
    /// the field-by-field assignments.
    @Test func declaredInitializerKeepsFieldByFieldDecoding() {
        assertTableExpansion(
            """
            @Table
            struct Note {
                var id: Int64?
                var text: String
                init(text: String) {
                    self.id = nil
                    self.text = text
                }
            }
            """,
            expandedSource: #"""
                struct Note {
                    var id: Int64?
                    var text: String
                    init(text: String) {
                        self.id = nil
                        self.text = text
                    }
                }

                nonisolated extension Note: Slate.Table, Slate.PrimaryKeyedTable, Slate.SelfManagingTable {
                    static let schema = Slate.TableSchema(
                        name: "Note",
                        columns: [
                            .init(name: "id", type: "INTEGER", primaryKeyPosition: 1),
                            .init(name: "text", type: "TEXT", isNotNull: true),
                        ])

                    struct Columns: Slate.TableColumns {
                        let id: Slate.Column<Note, Int64?>
                        let text: Slate.Column<Note, String>

                        init(qualifier: String) {
                            self.id = Slate.Column(qualifier, "id")
                            self.text = Slate.Column(qualifier, "text")
                        }
                    }

                    init(row: borrowing Slate.Row) throws {
                        self.id = try row.decode(at: 0)
                        self.text = try row.decode(at: 1)
                    }

                    func encode<Encoder: Slate.ColumnEncoder>(to encoder: inout Encoder) throws(Encoder.Failure) {
                        try encoder.encode(self.id)
                        try encoder.encode(self.text)
                    }

                    mutating func didInsert(rowID: Int64) throws {
                        self.id = rowID
                    }

                    var primaryKey: Int64? {
                        self.id
                    }
                }
                """#)
        assertTableExpansion(
            """
            @Table
            struct Tag {
                var id: Int64?
                private var label: String
            }
            """,
            expandedSource: #"""
                struct Tag {
                    var id: Int64?
                    private var label: String
                }

                nonisolated extension Tag: Slate.Table, Slate.PrimaryKeyedTable, Slate.SelfManagingTable {
                    static let schema = Slate.TableSchema(
                        name: "Tag",
                        columns: [
                            .init(name: "id", type: "INTEGER", primaryKeyPosition: 1),
                            .init(name: "label", type: "TEXT", isNotNull: true),
                        ])

                    struct Columns: Slate.TableColumns {
                        let id: Slate.Column<Tag, Int64?>
                        let label: Slate.Column<Tag, String>

                        init(qualifier: String) {
                            self.id = Slate.Column(qualifier, "id")
                            self.label = Slate.Column(qualifier, "label")
                        }
                    }

                    init(row: borrowing Slate.Row) throws {
                        self.id = try row.decode(at: 0)
                        self.label = try row.decode(at: 1)
                    }

                    func encode<Encoder: Slate.ColumnEncoder>(to encoder: inout Encoder) throws(Encoder.Failure) {
                        try encoder.encode(self.id)
                        try encoder.encode(self.label)
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

    /// Without the synthesized initializer, a struct whose stored properties have no initial value
    /// (no `= …`, no `var` spelled `T?`) reads every column into a local before the first
    /// assignment, so that Swift 6.3 does not copy the record once more; a local that could shadow
    /// `row`, `index` or a type takes another name.
    @Test func declaredInitializerWithoutInitialValuesReadsBeforeAssigning() {
        assertTableExpansion(
            """
            @Table
            struct Memo {
                var id: Optional<Int64>
                var row: String
                let body: String
                init(body: String) {
                    self.id = nil
                    self.row = ""
                    self.body = body
                }
            }
            """,
            expandedSource: #"""
                struct Memo {
                    var id: Optional<Int64>
                    var row: String
                    let body: String
                    init(body: String) {
                        self.id = nil
                        self.row = ""
                        self.body = body
                    }
                }

                nonisolated extension Memo: Slate.Table, Slate.PrimaryKeyedTable, Slate.SelfManagingTable {
                    static let schema = Slate.TableSchema(
                        name: "Memo",
                        columns: [
                            .init(name: "id", type: "INTEGER", primaryKeyPosition: 1),
                            .init(name: "row", type: "TEXT", isNotNull: true),
                            .init(name: "body", type: "TEXT", isNotNull: true),
                        ])

                    struct Columns: Slate.TableColumns {
                        let id: Slate.Column<Memo, Int64?>
                        let row: Slate.Column<Memo, String>
                        let body: Slate.Column<Memo, String>

                        init(qualifier: String) {
                            self.id = Slate.Column(qualifier, "id")
                            self.row = Slate.Column(qualifier, "row")
                            self.body = Slate.Column(qualifier, "body")
                        }
                    }

                    init(row: borrowing Slate.Row) throws {
                        let id: Int64? = try row.decode(at: 0)
                        let value1: String = try row.decode(at: 1)
                        let body: String = try row.decode(at: 2)
                        self.id = id
                        self.row = value1
                        self.body = body
                    }

                    func encode<Encoder: Slate.ColumnEncoder>(to encoder: inout Encoder) throws(Encoder.Failure) {
                        try encoder.encode(self.id)
                        try encoder.encode(self.row)
                        try encoder.encode(self.body)
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

    @Test func notNullOptionalWithADefaultMeansUseTheDefault() {
        assertTableExpansion(
            """
            @Table
            struct Entry {
                var id: Int64?
                @Column(default: "CURRENT_TIMESTAMP", notNull: true) var addedAt: Date?
            }
            """,
            expandedSource: #"""
                struct Entry {
                    var id: Int64?
                    var addedAt: Date?
                }

                nonisolated extension Entry: Slate.Table, Slate.PrimaryKeyedTable, Slate.SelfManagingTable {
                    static let schema = Slate.TableSchema(
                        name: "Entry",
                        columns: [
                            .init(name: "id", type: "INTEGER", primaryKeyPosition: 1),
                            .init(name: "addedAt", type: "DATETIME", isNotNull: true, defaultSQL: "CURRENT_TIMESTAMP"),
                        ])

                    struct Columns: Slate.TableColumns {
                        let id: Slate.Column<Entry, Int64?>
                        let addedAt: Slate.Column<Entry, Date>

                        init(qualifier: String) {
                            self.id = Slate.Column(qualifier, "id")
                            self.addedAt = Slate.Column(qualifier, "addedAt")
                        }
                    }

                    init(row: borrowing Slate.Row) throws {
                        self.init(
                            id: try row.decode(at: 0),
                            addedAt: try row.decode(at: 1))
                    }

                    func encode<Encoder: Slate.ColumnEncoder>(to encoder: inout Encoder) throws(Encoder.Failure) {
                        try encoder.encode(self.id)
                        try encoder.encode(self.addedAt)
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

    @Test func tableAndColumnNamesTypesDefaultsAndCollations() {
        assertTableExpansion(
            """
            @Table("people")
            struct Person {
                @PrimaryKey(autoIncrement: true) var personID: Int?
                @Column("full_name", collate: "NOCASE") var name: String
                @Column(type: "NVARCHAR(40)") var nickname: String?
                var score: Int = 0
                var ratio: Double = -1.5
                var status: String = "it's new"
                var isActive: Bool = true
                @Column(default: "CURRENT_TIMESTAMP") var createdAt: Date
            }
            """,
            expandedSource: #"""
                struct Person {
                    var personID: Int?
                    var name: String
                    var nickname: String?
                    var score: Int = 0
                    var ratio: Double = -1.5
                    var status: String = "it's new"
                    var isActive: Bool = true
                    var createdAt: Date
                }

                nonisolated extension Person: Slate.Table, Slate.PrimaryKeyedTable, Slate.SelfManagingTable {
                    static let schema = Slate.TableSchema(
                        name: "people",
                        columns: [
                            .init(name: "personID", type: "INTEGER", primaryKeyPosition: 1, isAutoIncrement: true),
                            .init(name: "full_name", type: "TEXT", isNotNull: true, collation: "NOCASE"),
                            .init(name: "nickname", type: "NVARCHAR(40)"),
                            .init(name: "score", type: "INTEGER", isNotNull: true, defaultSQL: "0"),
                            .init(name: "ratio", type: "REAL", isNotNull: true, defaultSQL: "-1.5"),
                            .init(name: "status", type: "TEXT", isNotNull: true, defaultSQL: "'it''s new'"),
                            .init(name: "isActive", type: "INTEGER", isNotNull: true, defaultSQL: "1"),
                            .init(name: "createdAt", type: "DATETIME", isNotNull: true, defaultSQL: "CURRENT_TIMESTAMP"),
                        ])

                    struct Columns: Slate.TableColumns {
                        let personID: Slate.Column<Person, Int?>
                        let name: Slate.Column<Person, String>
                        let nickname: Slate.Column<Person, String?>
                        let score: Slate.Column<Person, Int>
                        let ratio: Slate.Column<Person, Double>
                        let status: Slate.Column<Person, String>
                        let isActive: Slate.Column<Person, Bool>
                        let createdAt: Slate.Column<Person, Date>

                        init(qualifier: String) {
                            self.personID = Slate.Column(qualifier, "personID")
                            self.name = Slate.Column(qualifier, "full_name")
                            self.nickname = Slate.Column(qualifier, "nickname")
                            self.score = Slate.Column(qualifier, "score")
                            self.ratio = Slate.Column(qualifier, "ratio")
                            self.status = Slate.Column(qualifier, "status")
                            self.isActive = Slate.Column(qualifier, "isActive")
                            self.createdAt = Slate.Column(qualifier, "createdAt")
                        }
                    }

                    init(row: borrowing Slate.Row) throws {
                        self.init(
                            personID: try row.decode(at: 0),
                            name: try row.decode(at: 1),
                            nickname: try row.decode(at: 2),
                            score: try row.decode(at: 3),
                            ratio: try row.decode(at: 4),
                            status: try row.decode(at: 5),
                            isActive: try row.decode(at: 6),
                            createdAt: try row.decode(at: 7))
                    }

                    func encode<Encoder: Slate.ColumnEncoder>(to encoder: inout Encoder) throws(Encoder.Failure) {
                        try encoder.encode(self.personID)
                        try encoder.encode(self.name)
                        try encoder.encode(self.nickname)
                        try encoder.encode(self.score)
                        try encoder.encode(self.ratio)
                        try encoder.encode(self.status)
                        try encoder.encode(self.isActive)
                        try encoder.encode(self.createdAt)
                    }

                    mutating func didInsert(rowID: Int64) throws {
                        self.personID = try Slate.RowID.converted(rowID, to: Int.self)
                    }

                    var primaryKey: Int? {
                        self.personID
                    }
                }
                """#)
    }

    @Test func standardTypesOptionalsAndUserTypes() {
        assertTableExpansion(
            """
            @Table
            struct Sample {
                var id: String
                var count: Int32
                var small: UInt8?
                var price: Decimal
                var ratio: Float
                var link: URL?
                var token: Foundation.UUID
                var payload: Data
                var bytes: [UInt8]
                var when: Date?
                var maybe: Optional<Int>
                var kind: Kind
                var email: Email?
            }
            """,
            expandedSource: #"""
                struct Sample {
                    var id: String
                    var count: Int32
                    var small: UInt8?
                    var price: Decimal
                    var ratio: Float
                    var link: URL?
                    var token: Foundation.UUID
                    var payload: Data
                    var bytes: [UInt8]
                    var when: Date?
                    var maybe: Optional<Int>
                    var kind: Kind
                    var email: Email?
                }

                nonisolated extension Sample: Slate.Table, Slate.PrimaryKeyedTable, Slate.SelfManagingTable {
                    enum _SlateColumnValues {
                        typealias kind = Slate.ColumnValueCheck<Kind>.Checked
                        typealias email = Slate.ColumnValueCheck<Email>.Checked
                    }

                    static let schema = Slate.TableSchema(
                        name: "Sample",
                        columns: [
                            .init(name: "id", type: "TEXT", isNotNull: true, primaryKeyPosition: 1),
                            .init(name: "count", type: "INTEGER", isNotNull: true),
                            .init(name: "small", type: "INTEGER"),
                            .init(name: "price", type: "TEXT", isNotNull: true),
                            .init(name: "ratio", type: "REAL", isNotNull: true),
                            .init(name: "link", type: "TEXT"),
                            .init(name: "token", type: "TEXT", isNotNull: true, collation: "NOCASE"),
                            .init(name: "payload", type: "BLOB", isNotNull: true),
                            .init(name: "bytes", type: "BLOB", isNotNull: true),
                            .init(name: "when", type: "DATETIME"),
                            .init(name: "maybe", type: "INTEGER"),
                            .init(name: "kind", type: Slate.SQLColumnType.declaredType(for: Kind.self), isNotNull: true),
                            .init(name: "email", type: Slate.SQLColumnType.declaredType(for: Email.self)),
                        ])

                    struct Columns: Slate.TableColumns {
                        let id: Slate.Column<Sample, String>
                        let count: Slate.Column<Sample, Int32>
                        let small: Slate.Column<Sample, UInt8?>
                        let price: Slate.Column<Sample, Decimal>
                        let ratio: Slate.Column<Sample, Float>
                        let link: Slate.Column<Sample, URL?>
                        let token: Slate.Column<Sample, Foundation.UUID>
                        let payload: Slate.Column<Sample, Data>
                        let bytes: Slate.Column<Sample, [UInt8]>
                        let when: Slate.Column<Sample, Date?>
                        let maybe: Slate.Column<Sample, Int?>
                        let kind: Slate.Column<Sample, _SlateColumnValues.kind>
                        let email: Slate.Column<Sample, _SlateColumnValues.email?>

                        init(qualifier: String) {
                            self.id = Slate.Column(qualifier, "id")
                            self.count = Slate.Column(qualifier, "count")
                            self.small = Slate.Column(qualifier, "small")
                            self.price = Slate.Column(qualifier, "price")
                            self.ratio = Slate.Column(qualifier, "ratio")
                            self.link = Slate.Column(qualifier, "link")
                            self.token = Slate.Column(qualifier, "token")
                            self.payload = Slate.Column(qualifier, "payload")
                            self.bytes = Slate.Column(qualifier, "bytes")
                            self.when = Slate.Column(qualifier, "when")
                            self.maybe = Slate.Column(qualifier, "maybe")
                            self.kind = Slate.Column<Sample, _SlateColumnValues.kind>(qualifier, "kind")
                            self.email = Slate.Column<Sample, _SlateColumnValues.email?>(qualifier, "email")
                        }
                    }

                    init(row: borrowing Slate.Row) throws {
                        self.init(
                            id: try row.decode(at: 0),
                            count: try row.decode(at: 1),
                            small: try row.decode(at: 2),
                            price: try row.decode(at: 3),
                            ratio: try row.decode(at: 4),
                            link: try row.decode(at: 5),
                            token: try row.decode(at: 6),
                            payload: try row.decode(at: 7),
                            bytes: try row.decode(at: 8),
                            when: try row.decode(at: 9),
                            maybe: try row.decode(at: 10),
                            kind: try row.decode(_SlateColumnValues.kind.self, at: 11),
                            email: try row.decode(_SlateColumnValues.email?.self, at: 12))
                    }

                    func encode<Encoder: Slate.ColumnEncoder>(to encoder: inout Encoder) throws(Encoder.Failure) {
                        try encoder.encode(self.id)
                        try encoder.encode(self.count)
                        try encoder.encode(self.small)
                        try encoder.encode(self.price)
                        try encoder.encode(self.ratio)
                        try encoder.encode(self.link)
                        try encoder.encode(self.token)
                        try encoder.encode(self.payload)
                        try encoder.encode(self.bytes)
                        try encoder.encode(self.when)
                        try encoder.encode(self.maybe)
                        try encoder.encode(self.kind as _SlateColumnValues.kind)
                        try encoder.encode(self.email as _SlateColumnValues.email?)
                    }

                    var primaryKey: String {
                        self.id
                    }
                }
                """#)
    }

    @Test func explicitStoragesJSONDatesAndUUIDs() {
        assertTableExpansion(
            """
            @Table
            struct Event {
                var id: Int64?
                @Column(storage: .json) var tags: [String]
                @Column(storage: .json) var details: Details?
                @Column(storage: .date(.unixSeconds)) var startsAt: Date
                @Column(storage: .date(.julianDay)) var endsAt: Date?
                @Column(storage: .uuid(.blob)) var ticket: UUID
            }
            """,
            expandedSource: #"""
                struct Event {
                    var id: Int64?
                    var tags: [String]
                    var details: Details?
                    var startsAt: Date
                    var endsAt: Date?
                    var ticket: UUID
                }

                nonisolated extension Event: Slate.Table, Slate.PrimaryKeyedTable, Slate.SelfManagingTable {
                    static let schema = Slate.TableSchema(
                        name: "Event",
                        columns: [
                            .init(name: "id", type: "INTEGER", primaryKeyPosition: 1),
                            .init(name: "tags", type: "TEXT", isNotNull: true),
                            .init(name: "details", type: "TEXT"),
                            .init(name: "startsAt", type: "INTEGER", isNotNull: true),
                            .init(name: "endsAt", type: "REAL"),
                            .init(name: "ticket", type: "BLOB", isNotNull: true),
                        ])

                    struct Columns: Slate.TableColumns {
                        let id: Slate.Column<Event, Int64?>
                        let tags: Slate.Column<Event, Slate.JSONEncoded<[String]>>
                        let details: Slate.Column<Event, Slate.JSONEncoded<Details>?>
                        let startsAt: Slate.Column<Event, Date>
                        let endsAt: Slate.Column<Event, Date?>
                        let ticket: Slate.Column<Event, UUID>

                        init(qualifier: String) {
                            self.id = Slate.Column(qualifier, "id")
                            self.tags = Slate.Column(qualifier, "tags")
                            self.details = Slate.Column(qualifier, "details")
                            self.startsAt = Slate.Column(qualifier, "startsAt", storage: .date(.unixSeconds))
                            self.endsAt = Slate.Column(qualifier, "endsAt", storage: .date(.julianDay))
                            self.ticket = Slate.Column(qualifier, "ticket", storage: .uuid(.blob))
                        }
                    }

                    init(row: borrowing Slate.Row) throws {
                        self.init(
                            id: try row.decode(at: 0),
                            tags: try row.decode(Slate.JSONEncoded<[String]>.self, at: 1).value,
                            details: try row.decode(Slate.JSONEncoded<Details>?.self, at: 2)?.value,
                            startsAt: try row.date(at: 3, strategy: .unixSeconds),
                            endsAt: try row.date(at: 4, strategy: .julianDay),
                            ticket: try row.decode(at: 5))
                    }

                    func encode<Encoder: Slate.ColumnEncoder>(to encoder: inout Encoder) throws(Encoder.Failure) {
                        try encoder.encode(self.id)
                        try encoder.encode(Slate.JSONEncoded(self.tags))
                        try encoder.encode(self.details.map(Slate.JSONEncoded<Details>.init))
                        try encoder.encode(Slate.EncodedDate(self.startsAt, strategy: Slate.DateStrategy.unixSeconds))
                        try encoder.encode(self.endsAt.map {
                                Slate.EncodedDate($0, strategy: Slate.DateStrategy.julianDay)
                            })
                        try encoder.encode(Slate.UUIDStorage.blob.sqlValue(for: self.ticket))
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

    @Test func compositeKeyIsATuple() {
        assertTableExpansion(
            """
            @Table
            struct PlaylistTrack {
                @PrimaryKey var playlistId: Int64
                @PrimaryKey var trackId: Int64
                var position: Int
            }
            """,
            expandedSource: #"""
                struct PlaylistTrack {
                    var playlistId: Int64
                    var trackId: Int64
                    var position: Int
                }

                nonisolated extension PlaylistTrack: Slate.Table, Slate.PrimaryKeyedTable, Slate.SelfManagingTable {
                    static let schema = Slate.TableSchema(
                        name: "PlaylistTrack",
                        columns: [
                            .init(name: "playlistId", type: "INTEGER", isNotNull: true, primaryKeyPosition: 1),
                            .init(name: "trackId", type: "INTEGER", isNotNull: true, primaryKeyPosition: 2),
                            .init(name: "position", type: "INTEGER", isNotNull: true),
                        ])

                    struct Columns: Slate.TableColumns {
                        let playlistId: Slate.Column<PlaylistTrack, Int64>
                        let trackId: Slate.Column<PlaylistTrack, Int64>
                        let position: Slate.Column<PlaylistTrack, Int>

                        init(qualifier: String) {
                            self.playlistId = Slate.Column(qualifier, "playlistId")
                            self.trackId = Slate.Column(qualifier, "trackId")
                            self.position = Slate.Column(qualifier, "position")
                        }
                    }

                    init(row: borrowing Slate.Row) throws {
                        self.init(
                            playlistId: try row.decode(at: 0),
                            trackId: try row.decode(at: 1),
                            position: try row.decode(at: 2))
                    }

                    func encode<Encoder: Slate.ColumnEncoder>(to encoder: inout Encoder) throws(Encoder.Failure) {
                        try encoder.encode(self.playlistId)
                        try encoder.encode(self.trackId)
                        try encoder.encode(self.position)
                    }

                    var primaryKey: (Int64, Int64) {
                        (self.playlistId, self.trackId)
                    }

                    static func encode<Encoder: Slate.ColumnEncoder>(primaryKey key: (Int64, Int64), to encoder: inout Encoder) throws(Encoder.Failure) {
                        try encoder.encode(key.0)
                        try encoder.encode(key.1)
                    }
                }
                """#)
    }

    @Test func keyWithExplicitStorageBindsThroughIt() {
        assertTableExpansion(
            """
            @Table(withoutRowID: true)
            struct Session {
                @PrimaryKey @Column(storage: .uuid(.blob)) var token: UUID
                var user: String
            }
            """,
            expandedSource: #"""
                struct Session {
                    var token: UUID
                    var user: String
                }

                nonisolated extension Session: Slate.Table, Slate.PrimaryKeyedTable, Slate.SelfManagingTable {
                    static let schema = Slate.TableSchema(
                        name: "Session",
                        columns: [
                            .init(name: "token", type: "BLOB", isNotNull: true, primaryKeyPosition: 1),
                            .init(name: "user", type: "TEXT", isNotNull: true),
                        ],
                        isWithoutRowID: true)

                    struct Columns: Slate.TableColumns {
                        let token: Slate.Column<Session, UUID>
                        let user: Slate.Column<Session, String>

                        init(qualifier: String) {
                            self.token = Slate.Column(qualifier, "token", storage: .uuid(.blob))
                            self.user = Slate.Column(qualifier, "user")
                        }
                    }

                    init(row: borrowing Slate.Row) throws {
                        self.init(
                            token: try row.decode(at: 0),
                            user: try row.decode(at: 1))
                    }

                    func encode<Encoder: Slate.ColumnEncoder>(to encoder: inout Encoder) throws(Encoder.Failure) {
                        try encoder.encode(Slate.UUIDStorage.blob.sqlValue(for: self.token))
                        try encoder.encode(self.user)
                    }

                    var primaryKey: UUID {
                        self.token
                    }

                    static func encode<Encoder: Slate.ColumnEncoder>(primaryKey key: UUID, to encoder: inout Encoder) throws(Encoder.Failure) {
                        try encoder.encode(Slate.UUIDStorage.blob.sqlValue(for: key))
                    }
                }
                """#)
    }

    @Test func withoutKeyItIsAPlainTable() {
        assertTableExpansion(
            """
            @Table
            struct LogLine {
                var message: String
                var level: Int
            }
            """,
            expandedSource: #"""
                struct LogLine {
                    var message: String
                    var level: Int
                }

                nonisolated extension LogLine: Slate.Table, Slate.SelfManagingTable {
                    static let schema = Slate.TableSchema(
                        name: "LogLine",
                        columns: [
                            .init(name: "message", type: "TEXT", isNotNull: true),
                            .init(name: "level", type: "INTEGER", isNotNull: true),
                        ])

                    struct Columns: Slate.TableColumns {
                        let message: Slate.Column<LogLine, String>
                        let level: Slate.Column<LogLine, Int>

                        init(qualifier: String) {
                            self.message = Slate.Column(qualifier, "message")
                            self.level = Slate.Column(qualifier, "level")
                        }
                    }

                    init(row: borrowing Slate.Row) throws {
                        self.init(
                            message: try row.decode(at: 0),
                            level: try row.decode(at: 1))
                    }

                    func encode<Encoder: Slate.ColumnEncoder>(to encoder: inout Encoder) throws(Encoder.Failure) {
                        try encoder.encode(self.message)
                        try encoder.encode(self.level)
                    }
                }
                """#)
    }

    @Test func ignoredComputedStaticAndObservedProperties() {
        assertTableExpansion(
            """
            @Table
            struct Draft {
                var id: Int64?
                var text: String {
                    didSet { isDirty = true }
                }
                @Ignored var isDirty = false
                @Transient var cache: [String: Int] = [:]
                @Ignored var note: String?
                var length: Int { text.count }
                static var defaultText = ""
            }
            """,
            expandedSource: #"""
                struct Draft {
                    var id: Int64?
                    var text: String {
                        didSet { isDirty = true }
                    }
                    var isDirty = false
                    var cache: [String: Int] = [:]
                    var note: String?
                    var length: Int { text.count }
                    static var defaultText = ""
                }

                nonisolated extension Draft: Slate.Table, Slate.PrimaryKeyedTable, Slate.SelfManagingTable {
                    static let schema = Slate.TableSchema(
                        name: "Draft",
                        columns: [
                            .init(name: "id", type: "INTEGER", primaryKeyPosition: 1),
                            .init(name: "text", type: "TEXT", isNotNull: true),
                        ])

                    struct Columns: Slate.TableColumns {
                        let id: Slate.Column<Draft, Int64?>
                        let text: Slate.Column<Draft, String>

                        init(qualifier: String) {
                            self.id = Slate.Column(qualifier, "id")
                            self.text = Slate.Column(qualifier, "text")
                        }
                    }

                    init(row: borrowing Slate.Row) throws {
                        self.init(
                            id: try row.decode(at: 0),
                            text: try row.decode(at: 1))
                    }

                    func encode<Encoder: Slate.ColumnEncoder>(to encoder: inout Encoder) throws(Encoder.Failure) {
                        try encoder.encode(self.id)
                        try encoder.encode(self.text)
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

    @Test func intKeyStoresTheRowIDAndLetKeyDoesNot() {
        assertTableExpansion(
            """
            @Table
            struct Counter {
                var id: Int?
                var value: Int
            }
            @Table
            struct Constant {
                let id: Int64
                let value: Int
            }
            """,
            expandedSource: #"""
                struct Counter {
                    var id: Int?
                    var value: Int
                }
                struct Constant {
                    let id: Int64
                    let value: Int
                }

                nonisolated extension Counter: Slate.Table, Slate.PrimaryKeyedTable, Slate.SelfManagingTable {
                    static let schema = Slate.TableSchema(
                        name: "Counter",
                        columns: [
                            .init(name: "id", type: "INTEGER", primaryKeyPosition: 1),
                            .init(name: "value", type: "INTEGER", isNotNull: true),
                        ])

                    struct Columns: Slate.TableColumns {
                        let id: Slate.Column<Counter, Int?>
                        let value: Slate.Column<Counter, Int>

                        init(qualifier: String) {
                            self.id = Slate.Column(qualifier, "id")
                            self.value = Slate.Column(qualifier, "value")
                        }
                    }

                    init(row: borrowing Slate.Row) throws {
                        self.init(
                            id: try row.decode(at: 0),
                            value: try row.decode(at: 1))
                    }

                    func encode<Encoder: Slate.ColumnEncoder>(to encoder: inout Encoder) throws(Encoder.Failure) {
                        try encoder.encode(self.id)
                        try encoder.encode(self.value)
                    }

                    mutating func didInsert(rowID: Int64) throws {
                        self.id = try Slate.RowID.converted(rowID, to: Int.self)
                    }

                    var primaryKey: Int? {
                        self.id
                    }
                }

                nonisolated extension Constant: Slate.Table, Slate.PrimaryKeyedTable, Slate.SelfManagingTable {
                    static let schema = Slate.TableSchema(
                        name: "Constant",
                        columns: [
                            .init(name: "id", type: "INTEGER", primaryKeyPosition: 1),
                            .init(name: "value", type: "INTEGER", isNotNull: true),
                        ])

                    struct Columns: Slate.TableColumns {
                        let id: Slate.Column<Constant, Int64>
                        let value: Slate.Column<Constant, Int>

                        init(qualifier: String) {
                            self.id = Slate.Column(qualifier, "id")
                            self.value = Slate.Column(qualifier, "value")
                        }
                    }

                    init(row: borrowing Slate.Row) throws {
                        self.init(
                            id: try row.decode(at: 0),
                            value: try row.decode(at: 1))
                    }

                    func encode<Encoder: Slate.ColumnEncoder>(to encoder: inout Encoder) throws(Encoder.Failure) {
                        try encoder.encode(self.id)
                        try encoder.encode(self.value)
                    }

                    var primaryKey: Int64 {
                        self.id
                    }
                }
                """#)
    }
}
