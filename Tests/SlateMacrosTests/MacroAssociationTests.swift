import SwiftSyntaxMacrosGenericTestSupport
import Testing

/// `@Table`'s associations: declared in `@Table(associations:)` and one `BelongsTo` per
/// `@ForeignKey(Type.self)`, written as members of `Columns`; a name a column (or another
/// association) uses is a compile error.
@Suite struct MacroAssociationTests {
    @Test func declaredAndForeignKeyAssociationsBecomeMembersOfColumns() {
        assertTableExpansion(
            """
            @Table(associations: [
                .belongsTo("manager", Employee.self, foreignKey: ["reportsTo"]),
                .hasMany("reports", Employee.self, foreignKey: ["reportsTo"]),
                .hasMany("tracks", Track.self, through: PlaylistTrack.self),
            ])
            struct Employee {
                var id: Int64?
                @ForeignKey(table: "Employee") var reportsTo: Int64?
                @ForeignKey(Office.self) var officeId: Int64
            }
            """,
            expandedSource: #"""
                struct Employee {
                    var id: Int64?
                    var reportsTo: Int64?
                    var officeId: Int64
                }

                nonisolated extension Employee: Slate.Table, Slate.PrimaryKeyedTable, Slate.SelfManagingTable {
                    static let schema = Slate.TableSchema(
                        name: "Employee",
                        columns: [
                            .init(name: "id", type: "INTEGER", primaryKeyPosition: 1),
                            .init(name: "reportsTo", type: "INTEGER"),
                            .init(name: "officeId", type: "INTEGER", isNotNull: true),
                        ],
                        foreignKeys: [
                            .init(columns: ["reportsTo"], referencedTable: "Employee"),
                            .init(columns: ["officeId"], referencedTable: Office.tableName),
                        ])

                    struct Columns: Slate.TableColumns {
                        let id: Slate.Column<Employee, Int64?>
                        let reportsTo: Slate.Column<Employee, Int64?>
                        let officeId: Slate.Column<Employee, Int64>

                        init(qualifier: String) {
                            self.id = Slate.Column(qualifier, "id")
                            self.reportsTo = Slate.Column(qualifier, "reportsTo")
                            self.officeId = Slate.Column(qualifier, "officeId")
                        }

                        var manager: Slate.BelongsTo<Employee, Employee> {
                            .belongsTo(id.qualifier, foreignKey: ["reportsTo"])
                        }

                        var reports: Slate.HasMany<Employee, Employee> {
                            .hasMany(id.qualifier, foreignKey: ["reportsTo"])
                        }

                        var tracks: Slate.HasMany<Employee, Track> {
                            .hasMany(id.qualifier, through: PlaylistTrack.self)
                        }

                        var office: Slate.BelongsTo<Employee, Office> {
                            .belongsTo(id.qualifier)
                        }
                    }

                    init(row: borrowing Slate.Row) throws {
                        self.init(
                            id: try row.decode(at: 0),
                            reportsTo: try row.decode(at: 1),
                            officeId: try row.decode(at: 2))
                    }

                    func encode<Encoder: Slate.ColumnEncoder>(to encoder: inout Encoder) throws(Encoder.Failure) {
                        try encoder.encode(self.id)
                        try encoder.encode(self.reportsTo)
                        try encoder.encode(self.officeId)
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

    @Test func aForeignKeyAssociationNeverTakesAColumnsName() {
        assertTableExpansion(
            """
            @Table
            struct Track {
                var id: Int64?
                var album: String
                @ForeignKey(Album.self) var albumId: Int64
            }
            """,
            expandedSource: #"""
                struct Track {
                    var id: Int64?
                    var album: String
                    var albumId: Int64
                }

                nonisolated extension Track: Slate.Table, Slate.PrimaryKeyedTable, Slate.SelfManagingTable {
                    static let schema = Slate.TableSchema(
                        name: "Track",
                        columns: [
                            .init(name: "id", type: "INTEGER", primaryKeyPosition: 1),
                            .init(name: "album", type: "TEXT", isNotNull: true),
                            .init(name: "albumId", type: "INTEGER", isNotNull: true),
                        ],
                        foreignKeys: [
                            .init(columns: ["albumId"], referencedTable: Album.tableName),
                        ])

                    struct Columns: Slate.TableColumns {
                        let id: Slate.Column<Track, Int64?>
                        let album: Slate.Column<Track, String>
                        let albumId: Slate.Column<Track, Int64>

                        init(qualifier: String) {
                            self.id = Slate.Column(qualifier, "id")
                            self.album = Slate.Column(qualifier, "album")
                            self.albumId = Slate.Column(qualifier, "albumId")
                        }

                        var albumAlbum: Slate.BelongsTo<Track, Album> {
                            .belongsTo(id.qualifier)
                        }
                    }

                    init(row: borrowing Slate.Row) throws {
                        self.init(
                            id: try row.decode(at: 0),
                            album: try row.decode(at: 1),
                            albumId: try row.decode(at: 2))
                    }

                    func encode<Encoder: Slate.ColumnEncoder>(to encoder: inout Encoder) throws(Encoder.Failure) {
                        try encoder.encode(self.id)
                        try encoder.encode(self.album)
                        try encoder.encode(self.albumId)
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

    @Test func aDeclaredNameThatAColumnUsesIsAnError() {
        assertTableExpansion(
            """
            @Table(associations: [.hasMany("name", Album.self)])
            struct Artist {
                var id: Int64?
                var name: String
            }
            """,
            expandedSource: """
                struct Artist {
                    var id: Int64?
                    var name: String
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message:
                        "@Table argument 'associations' must be a name that no column or other association uses ('name')",
                    line: 1, column: 23)
            ])
    }

    @Test func anAssociationThatIsNotACallIsAnError() {
        assertTableExpansion(
            """
            @Table(associations: [albums])
            struct Artist {
                var id: Int64?
            }
            """,
            expandedSource: """
                struct Artist {
                    var id: Int64?
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message:
                        "@Table argument 'associations' must be '.hasMany(\"name\", Type.self)', '.hasOne(…)', "
                        + "'.belongsTo(…)' or '.hasMany(…, through: Type.self)'",
                    line: 1, column: 23)
            ])
    }
}
