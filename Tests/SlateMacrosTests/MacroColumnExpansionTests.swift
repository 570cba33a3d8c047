import SwiftSyntaxMacrosGenericTestSupport
import Testing

/// `@Table` expansions of columns: names, types, defaults, collations, storages and the properties
/// that are not columns, one test per feature.
@Suite struct MacroColumnExpansionTests {
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
}
