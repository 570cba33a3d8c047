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

            extension Artist: Slate.Table, Slate.PrimaryKeyedTable, Slate.SelfManagingTable {
                static let tableName = "Artist"

                static let columnDescriptors: [Slate.ColumnDescriptor] = [
                    Slate.ColumnDescriptor(name: "id", sqlType: "INTEGER", isNullable: false, primaryKeyPosition: 1),
                    Slate.ColumnDescriptor(name: "name", sqlType: "TEXT", isNullable: false),
                ]

                struct Columns: Slate.TableColumns {
                    let id: Slate.Column<Artist, Int64?>
                    let name: Slate.Column<Artist, String>

                    init(qualifier: String) {
                        self.id = Slate.Column(qualifier, "id")
                        self.name = Slate.Column(qualifier, "name")
                    }
                }

                init(row: borrowing Slate.Row) throws {
                    self.id = try row.decode(at: 0)
                    self.name = try row.decode(at: 1)
                }

                func bindColumns(to statement: Slate.Statement, startingAt index: Int) throws {
                    try self.id.bind(to: statement, at: index)
                    try self.name.bind(to: statement, at: index + 1)
                }

                mutating func didInsert(rowID: Int64) {
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

            extension Person: Slate.Table, Slate.PrimaryKeyedTable, Slate.SelfManagingTable {
                static let tableName = "people"

                static let columnDescriptors: [Slate.ColumnDescriptor] = [
                    Slate.ColumnDescriptor(name: "personID", sqlType: "INTEGER", isNullable: false, primaryKeyPosition: 1, isAutoIncrement: true),
                    Slate.ColumnDescriptor(name: "full_name", sqlType: "TEXT", isNullable: false, collation: "NOCASE"),
                    Slate.ColumnDescriptor(name: "nickname", sqlType: "NVARCHAR(40)"),
                    Slate.ColumnDescriptor(name: "score", sqlType: "INTEGER", isNullable: false, defaultSQL: "0"),
                    Slate.ColumnDescriptor(name: "ratio", sqlType: "REAL", isNullable: false, defaultSQL: "-1.5"),
                    Slate.ColumnDescriptor(name: "status", sqlType: "TEXT", isNullable: false, defaultSQL: "'it''s new'"),
                    Slate.ColumnDescriptor(name: "isActive", sqlType: "INTEGER", isNullable: false, defaultSQL: "1"),
                    Slate.ColumnDescriptor(name: "createdAt", sqlType: "DATETIME", isNullable: false, defaultSQL: "CURRENT_TIMESTAMP"),
                ]

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
                    self.personID = try row.decode(at: 0)
                    self.name = try row.decode(at: 1)
                    self.nickname = try row.decode(at: 2)
                    self.score = try row.decode(at: 3)
                    self.ratio = try row.decode(at: 4)
                    self.status = try row.decode(at: 5)
                    self.isActive = try row.decode(at: 6)
                    self.createdAt = try row.decode(at: 7)
                }

                func bindColumns(to statement: Slate.Statement, startingAt index: Int) throws {
                    try self.personID.bind(to: statement, at: index)
                    try self.name.bind(to: statement, at: index + 1)
                    try self.nickname.bind(to: statement, at: index + 2)
                    try self.score.bind(to: statement, at: index + 3)
                    try self.ratio.bind(to: statement, at: index + 4)
                    try self.status.bind(to: statement, at: index + 5)
                    try self.isActive.bind(to: statement, at: index + 6)
                    try self.createdAt.bind(to: statement, at: index + 7)
                }

                mutating func didInsert(rowID: Int64) {
                    self.personID = Int(truncatingIfNeeded: rowID)
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

            extension Sample: Slate.Table, Slate.PrimaryKeyedTable, Slate.SelfManagingTable {
                static let tableName = "Sample"

                static let columnDescriptors: [Slate.ColumnDescriptor] = [
                    Slate.ColumnDescriptor(name: "id", sqlType: "TEXT", isNullable: false, primaryKeyPosition: 1),
                    Slate.ColumnDescriptor(name: "count", sqlType: "INTEGER", isNullable: false),
                    Slate.ColumnDescriptor(name: "small", sqlType: "INTEGER"),
                    Slate.ColumnDescriptor(name: "price", sqlType: "TEXT", isNullable: false),
                    Slate.ColumnDescriptor(name: "ratio", sqlType: "REAL", isNullable: false),
                    Slate.ColumnDescriptor(name: "link", sqlType: "TEXT"),
                    Slate.ColumnDescriptor(name: "token", sqlType: "TEXT", isNullable: false),
                    Slate.ColumnDescriptor(name: "payload", sqlType: "BLOB", isNullable: false),
                    Slate.ColumnDescriptor(name: "bytes", sqlType: "BLOB", isNullable: false),
                    Slate.ColumnDescriptor(name: "when", sqlType: "DATETIME"),
                    Slate.ColumnDescriptor(name: "maybe", sqlType: "INTEGER"),
                    Slate.ColumnDescriptor(name: "kind", sqlType: Slate.SQLColumnType.declaredType(for: Kind.self), isNullable: false),
                    Slate.ColumnDescriptor(name: "email", sqlType: Slate.SQLColumnType.declaredType(for: Email.self)),
                ]

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
                    let maybe: Slate.Column<Sample, Optional<Int>>
                    let kind: Slate.Column<Sample, Kind>
                    let email: Slate.Column<Sample, Email?>

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
                        self.kind = Slate.Column(qualifier, "kind")
                        self.email = Slate.Column(qualifier, "email")
                    }
                }

                init(row: borrowing Slate.Row) throws {
                    self.id = try row.decode(at: 0)
                    self.count = try row.decode(at: 1)
                    self.small = try row.decode(at: 2)
                    self.price = try row.decode(at: 3)
                    self.ratio = try row.decode(at: 4)
                    self.link = try row.decode(at: 5)
                    self.token = try row.decode(at: 6)
                    self.payload = try row.decode(at: 7)
                    self.bytes = try row.decode(at: 8)
                    self.when = try row.decode(at: 9)
                    self.maybe = try row.decode(at: 10)
                    self.kind = try row.decode(at: 11)
                    self.email = try row.decode(at: 12)
                }

                func bindColumns(to statement: Slate.Statement, startingAt index: Int) throws {
                    try self.id.bind(to: statement, at: index)
                    try self.count.bind(to: statement, at: index + 1)
                    try self.small.bind(to: statement, at: index + 2)
                    try self.price.bind(to: statement, at: index + 3)
                    try self.ratio.bind(to: statement, at: index + 4)
                    try self.link.bind(to: statement, at: index + 5)
                    try self.token.bind(to: statement, at: index + 6)
                    try self.payload.bind(to: statement, at: index + 7)
                    try self.bytes.bind(to: statement, at: index + 8)
                    try self.when.bind(to: statement, at: index + 9)
                    try self.maybe.bind(to: statement, at: index + 10)
                    try self.kind.bind(to: statement, at: index + 11)
                    try self.email.bind(to: statement, at: index + 12)
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

            extension Event: Slate.Table, Slate.PrimaryKeyedTable, Slate.SelfManagingTable {
                static let tableName = "Event"

                static let columnDescriptors: [Slate.ColumnDescriptor] = [
                    Slate.ColumnDescriptor(name: "id", sqlType: "INTEGER", isNullable: false, primaryKeyPosition: 1),
                    Slate.ColumnDescriptor(name: "tags", sqlType: "TEXT", isNullable: false),
                    Slate.ColumnDescriptor(name: "details", sqlType: "TEXT"),
                    Slate.ColumnDescriptor(name: "startsAt", sqlType: "INTEGER", isNullable: false),
                    Slate.ColumnDescriptor(name: "endsAt", sqlType: "REAL"),
                    Slate.ColumnDescriptor(name: "ticket", sqlType: "BLOB", isNullable: false),
                ]

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
                        self.startsAt = Slate.Column(qualifier, "startsAt")
                        self.endsAt = Slate.Column(qualifier, "endsAt")
                        self.ticket = Slate.Column(qualifier, "ticket")
                    }
                }

                init(row: borrowing Slate.Row) throws {
                    self.id = try row.decode(at: 0)
                    self.tags = try row.decode(Slate.JSONEncoded<[String]>.self, at: 1).value
                    self.details = try row.decode(Slate.JSONEncoded<Details>?.self, at: 2)?.value
                    self.startsAt = try row.date(at: 3, strategy: .unixSeconds)
                    self.endsAt = try row.date(at: 4, strategy: .julianDay)
                    self.ticket = try row.decode(at: 5)
                }

                func bindColumns(to statement: Slate.Statement, startingAt index: Int) throws {
                    try self.id.bind(to: statement, at: index)
                    try Slate.JSONEncoded(self.tags).bind(to: statement, at: index + 1)
                    try self.details.map(Slate.JSONEncoded<Details>.init).bind(to: statement, at: index + 2)
                    try statement.bind(self.startsAt, at: Int(index + 3), strategy: .unixSeconds)
                    try statement.bind(self.endsAt, at: Int(index + 4), strategy: .julianDay)
                    try statement.bind(self.ticket, at: Int(index + 5), storage: .blob)
                }

                mutating func didInsert(rowID: Int64) {
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

            extension PlaylistTrack: Slate.Table, Slate.PrimaryKeyedTable, Slate.SelfManagingTable {
                static let tableName = "PlaylistTrack"

                static let columnDescriptors: [Slate.ColumnDescriptor] = [
                    Slate.ColumnDescriptor(name: "playlistId", sqlType: "INTEGER", isNullable: false, primaryKeyPosition: 1),
                    Slate.ColumnDescriptor(name: "trackId", sqlType: "INTEGER", isNullable: false, primaryKeyPosition: 2),
                    Slate.ColumnDescriptor(name: "position", sqlType: "INTEGER", isNullable: false),
                ]

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
                    self.playlistId = try row.decode(at: 0)
                    self.trackId = try row.decode(at: 1)
                    self.position = try row.decode(at: 2)
                }

                func bindColumns(to statement: Slate.Statement, startingAt index: Int) throws {
                    try self.playlistId.bind(to: statement, at: index)
                    try self.trackId.bind(to: statement, at: index + 1)
                    try self.position.bind(to: statement, at: index + 2)
                }

                var primaryKey: (Int64, Int64) {
                    (self.playlistId, self.trackId)
                }

                static func primaryKeyArguments(_ key: (Int64, Int64)) -> [(any Slate.SQLBindable)?] {
                    [key.0, key.1]
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

            extension Session: Slate.Table, Slate.PrimaryKeyedTable, Slate.SelfManagingTable {
                static let tableName = "Session"

                static let columnDescriptors: [Slate.ColumnDescriptor] = [
                    Slate.ColumnDescriptor(name: "token", sqlType: "BLOB", isNullable: false, primaryKeyPosition: 1),
                    Slate.ColumnDescriptor(name: "user", sqlType: "TEXT", isNullable: false),
                ]

                static let isWithoutRowID = true

                struct Columns: Slate.TableColumns {
                    let token: Slate.Column<Session, UUID>
                    let user: Slate.Column<Session, String>

                    init(qualifier: String) {
                        self.token = Slate.Column(qualifier, "token")
                        self.user = Slate.Column(qualifier, "user")
                    }
                }

                init(row: borrowing Slate.Row) throws {
                    self.token = try row.decode(at: 0)
                    self.user = try row.decode(at: 1)
                }

                func bindColumns(to statement: Slate.Statement, startingAt index: Int) throws {
                    try statement.bind(self.token, at: Int(index), storage: .blob)
                    try self.user.bind(to: statement, at: index + 1)
                }

                var primaryKey: UUID {
                    self.token
                }

                static func primaryKeyArguments(_ key: UUID) -> [(any Slate.SQLBindable)?] {
                    [Slate.UUIDStorage.blob.sqlValue(for: key)]
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

            extension LogLine: Slate.Table, Slate.SelfManagingTable {
                static let tableName = "LogLine"

                static let columnDescriptors: [Slate.ColumnDescriptor] = [
                    Slate.ColumnDescriptor(name: "message", sqlType: "TEXT", isNullable: false),
                    Slate.ColumnDescriptor(name: "level", sqlType: "INTEGER", isNullable: false),
                ]

                struct Columns: Slate.TableColumns {
                    let message: Slate.Column<LogLine, String>
                    let level: Slate.Column<LogLine, Int>

                    init(qualifier: String) {
                        self.message = Slate.Column(qualifier, "message")
                        self.level = Slate.Column(qualifier, "level")
                    }
                }

                init(row: borrowing Slate.Row) throws {
                    self.message = try row.decode(at: 0)
                    self.level = try row.decode(at: 1)
                }

                func bindColumns(to statement: Slate.Statement, startingAt index: Int) throws {
                    try self.message.bind(to: statement, at: index)
                    try self.level.bind(to: statement, at: index + 1)
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

            extension Draft: Slate.Table, Slate.PrimaryKeyedTable, Slate.SelfManagingTable {
                static let tableName = "Draft"

                static let columnDescriptors: [Slate.ColumnDescriptor] = [
                    Slate.ColumnDescriptor(name: "id", sqlType: "INTEGER", isNullable: false, primaryKeyPosition: 1),
                    Slate.ColumnDescriptor(name: "text", sqlType: "TEXT", isNullable: false),
                ]

                struct Columns: Slate.TableColumns {
                    let id: Slate.Column<Draft, Int64?>
                    let text: Slate.Column<Draft, String>

                    init(qualifier: String) {
                        self.id = Slate.Column(qualifier, "id")
                        self.text = Slate.Column(qualifier, "text")
                    }
                }

                init(row: borrowing Slate.Row) throws {
                    self.id = try row.decode(at: 0)
                    self.text = try row.decode(at: 1)
                }

                func bindColumns(to statement: Slate.Statement, startingAt index: Int) throws {
                    try self.id.bind(to: statement, at: index)
                    try self.text.bind(to: statement, at: index + 1)
                }

                mutating func didInsert(rowID: Int64) {
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

            extension Album: Slate.Table, Slate.PrimaryKeyedTable, Slate.SelfManagingTable {
                static let tableName = "Album"

                static let columnDescriptors: [Slate.ColumnDescriptor] = [
                    Slate.ColumnDescriptor(name: "id", sqlType: "INTEGER", isNullable: false, primaryKeyPosition: 1),
                    Slate.ColumnDescriptor(name: "code", sqlType: "TEXT", isNullable: false, isUnique: true),
                    Slate.ColumnDescriptor(name: "title", sqlType: "TEXT", isNullable: false),
                    Slate.ColumnDescriptor(name: "artistId", sqlType: "INTEGER", isNullable: false, references: Slate.ColumnReference(table: Artist.tableName, onDelete: .cascade)),
                    Slate.ColumnDescriptor(name: "labelCode", sqlType: "TEXT", references: Slate.ColumnReference(table: "Label", column: "code", onUpdate: .cascade)),
                ]

                static let indexes: [Slate.IndexDescriptor] = [
                    Slate.IndexDescriptor(name: "Album_title", columns: ["title"]),
                ]

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
                }

                init(row: borrowing Slate.Row) throws {
                    self.id = try row.decode(at: 0)
                    self.code = try row.decode(at: 1)
                    self.title = try row.decode(at: 2)
                    self.artistId = try row.decode(at: 3)
                    self.labelCode = try row.decode(at: 4)
                }

                func bindColumns(to statement: Slate.Statement, startingAt index: Int) throws {
                    try self.id.bind(to: statement, at: index)
                    try self.code.bind(to: statement, at: index + 1)
                    try self.title.bind(to: statement, at: index + 2)
                    try self.artistId.bind(to: statement, at: index + 3)
                    try self.labelCode.bind(to: statement, at: index + 4)
                }

                mutating func didInsert(rowID: Int64) {
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

            extension Note: Slate.Table, Slate.PrimaryKeyedTable, Slate.SelfManagingTable {
                static let tableName = "Note"

                static let columnDescriptors: [Slate.ColumnDescriptor] = [
                    Slate.ColumnDescriptor(name: "id", sqlType: "INTEGER", isNullable: false, primaryKeyPosition: 1),
                    Slate.ColumnDescriptor(name: "body", sqlType: "TEXT", isNullable: false),
                ]

                static let renamedColumns: [String: String] = ["id": "noteId", "body": "text"]

                static let databaseFile: String? = "notes.sqlite"

                struct Columns: Slate.TableColumns {
                    let id: Slate.Column<Note, Int64?>
                    let body: Slate.Column<Note, String>

                    init(qualifier: String) {
                        self.id = Slate.Column(qualifier, "id")
                        self.body = Slate.Column(qualifier, "body")
                    }
                }

                init(row: borrowing Slate.Row) throws {
                    self.id = try row.decode(at: 0)
                    self.body = try row.decode(at: 1)
                }

                func bindColumns(to statement: Slate.Statement, startingAt index: Int) throws {
                    try self.id.bind(to: statement, at: index)
                    try self.body.bind(to: statement, at: index + 1)
                }

                mutating func didInsert(rowID: Int64) {
                    self.id = rowID
                }

                var primaryKey: Int64? {
                    self.id
                }
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

            extension Tag: Slate.Table, Slate.PrimaryKeyedTable, Slate.SelfManagingTable {
                public static let tableName = "Tag"

                public static let columnDescriptors: [Slate.ColumnDescriptor] = [
                    Slate.ColumnDescriptor(name: "id", sqlType: "INTEGER", isNullable: false, primaryKeyPosition: 1),
                    Slate.ColumnDescriptor(name: "default", sqlType: "INTEGER", isNullable: false),
                ]

                public struct Columns: Slate.TableColumns {
                    public let id: Slate.Column<Tag, Int64?>
                    public let `default`: Slate.Column<Tag, Bool>

                    public init(qualifier: String) {
                        self.id = Slate.Column(qualifier, "id")
                        self.`default` = Slate.Column(qualifier, "default")
                    }
                }

                public init(row: borrowing Slate.Row) throws {
                    self.id = try row.decode(at: 0)
                    self.`default` = try row.decode(at: 1)
                }

                public func bindColumns(to statement: Slate.Statement, startingAt index: Int) throws {
                    try self.id.bind(to: statement, at: index)
                    try self.`default`.bind(to: statement, at: index + 1)
                }

                public mutating func didInsert(rowID: Int64) {
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

            extension Counter: Slate.Table, Slate.PrimaryKeyedTable, Slate.SelfManagingTable {
                static let tableName = "Counter"

                static let columnDescriptors: [Slate.ColumnDescriptor] = [
                    Slate.ColumnDescriptor(name: "id", sqlType: "INTEGER", isNullable: false, primaryKeyPosition: 1),
                    Slate.ColumnDescriptor(name: "value", sqlType: "INTEGER", isNullable: false),
                ]

                struct Columns: Slate.TableColumns {
                    let id: Slate.Column<Counter, Int?>
                    let value: Slate.Column<Counter, Int>

                    init(qualifier: String) {
                        self.id = Slate.Column(qualifier, "id")
                        self.value = Slate.Column(qualifier, "value")
                    }
                }

                init(row: borrowing Slate.Row) throws {
                    self.id = try row.decode(at: 0)
                    self.value = try row.decode(at: 1)
                }

                func bindColumns(to statement: Slate.Statement, startingAt index: Int) throws {
                    try self.id.bind(to: statement, at: index)
                    try self.value.bind(to: statement, at: index + 1)
                }

                mutating func didInsert(rowID: Int64) {
                    self.id = Int(truncatingIfNeeded: rowID)
                }

                var primaryKey: Int? {
                    self.id
                }
            }

            extension Constant: Slate.Table, Slate.PrimaryKeyedTable, Slate.SelfManagingTable {
                static let tableName = "Constant"

                static let columnDescriptors: [Slate.ColumnDescriptor] = [
                    Slate.ColumnDescriptor(name: "id", sqlType: "INTEGER", isNullable: false, primaryKeyPosition: 1),
                    Slate.ColumnDescriptor(name: "value", sqlType: "INTEGER", isNullable: false),
                ]

                struct Columns: Slate.TableColumns {
                    let id: Slate.Column<Constant, Int64>
                    let value: Slate.Column<Constant, Int>

                    init(qualifier: String) {
                        self.id = Slate.Column(qualifier, "id")
                        self.value = Slate.Column(qualifier, "value")
                    }
                }

                init(row: borrowing Slate.Row) throws {
                    self.id = try row.decode(at: 0)
                    self.value = try row.decode(at: 1)
                }

                func bindColumns(to statement: Slate.Statement, startingAt index: Int) throws {
                    try self.id.bind(to: statement, at: index)
                    try self.value.bind(to: statement, at: index + 1)
                }

                var primaryKey: Int64 {
                    self.id
                }
            }
            """#)
    }
}
