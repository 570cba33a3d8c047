import SwiftSyntaxMacrosGenericTestSupport
import Testing

/// `@Table` expansions of keys and initializers: the row ID, composite and explicit-storage keys,
/// keyless tables, and how `init(row:)` decodes, one test per feature.
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
