import SwiftParser
import SwiftSyntax
import SwiftSyntaxMacroExpansion
import SwiftSyntaxMacros
import SwiftSyntaxMacrosGenericTestSupport
import Testing

/// `@Table`'s compile-time diagnostics and their fix-its. A declaration with an error gets no
/// extension, so the expanded source is the declaration without its attributes.
@Suite struct MacroDiagnosticsTests {
    static let notAStruct = "records are values that Slate decodes by position"

    @Test func notNullOnAnOptionalWithoutDefaultIsRejected() {
        assertTableExpansion(
            """
            @Table
            struct Entry {
                var id: Int64?
                @Column(notNull: true) var addedAt: Date?
            }
            """,
            expandedSource: """
                struct Entry {
                    var id: Int64?
                    var addedAt: Date?
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message:
                        "@Column argument 'notNull' must be paired with a 'default:' when the property is optional",
                    line: 4, column: 41)
            ])
    }

    @Test func aColumnGroupHasNoKey() {
        assertTableExpansion(
            """
            @ColumnGroup
            struct Address {
                @PrimaryKey var street: String
            }
            """,
            expandedSource: """
                struct Address {
                    var street: String
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message:
                        "@ColumnGroup argument 'street' must be a plain column: no key, group, foreign key or index",
                    line: 2, column: 8)
            ])
    }

    @Test func classIsRejectedWithAFixItToStruct() {
        assertTableExpansion(
            """
            @Table
            class Artist {
                var id: Int64?
            }
            """,
            expandedSource: """
                class Artist {
                    var id: Int64?
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message: "@Table applies to a struct, not a class: \(Self.notAStruct)", line: 2, column: 1,
                    fixIts: [FixItSpec(message: "make it a struct")])
            ],
            applyFixIts: ["make it a struct"],
            fixedSource: """
                @Table
                struct Artist {
                    var id: Int64?
                }
                """)
    }

    @Test func actorIsRejectedWithAFixItToStruct() {
        assertTableExpansion(
            """
            @Table
            actor Counter {
                var id: Int64?
            }
            """,
            expandedSource: """
                actor Counter {
                    var id: Int64?
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message: "@Table applies to a struct, not an actor: \(Self.notAStruct)", line: 2, column: 1,
                    fixIts: [FixItSpec(message: "make it a struct")])
            ])
    }

    @Test func enumIsRejected() {
        assertTableExpansion(
            """
            @Table
            enum Kind {
                case a
            }
            """,
            expandedSource: """
                enum Kind {
                    case a
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message: "@Table applies to a struct, not an enum: \(Self.notAStruct)", line: 2, column: 1)
            ])
    }

    @Test func computedOnlyTypeHasNoColumns() {
        assertTableExpansion(
            """
            @Table
            struct Derived {
                var total: Int { 42 }
                @Ignored var cache: Int = 0
                static var shared = 1
            }
            """,
            expandedSource: """
                struct Derived {
                    var total: Int { 42 }
                    var cache: Int = 0
                    static var shared = 1
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message:
                        "'Derived' has no stored properties to store as columns: @Table needs at least one stored, non-ignored property",
                    line: 2, column: 8)
            ])
    }

    @Test func unsupportedPropertyTypes() {
        let suffix = "mark it @Ignored or change its type"
        assertTableExpansion(
            """
            @Table
            struct Bad {
                var id: Int64?
                var pair: (Int, Int)
                var callback: () -> Void
                var anything: Any
                var shape: any Shape
                var twice: Int??
            }
            """,
            expandedSource: """
                struct Bad {
                    var id: Int64?
                    var pair: (Int, Int)
                    var callback: () -> Void
                    var anything: Any
                    var shape: any Shape
                    var twice: Int??
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message:
                        "property 'pair' has type '(Int, Int)', which cannot be stored in a column: tuples have no column representation; \(suffix)",
                    line: 4, column: 15),
                DiagnosticSpec(
                    message:
                        "property 'callback' has type '() -> Void', which cannot be stored in a column: functions cannot be stored; \(suffix)",
                    line: 5, column: 19),
                DiagnosticSpec(
                    message:
                        "property 'anything' has type 'Any', which cannot be stored in a column: an existential or opaque type has no fixed column type; \(suffix)",
                    line: 6, column: 19),
                DiagnosticSpec(
                    message:
                        "property 'shape' has type 'any Shape', which cannot be stored in a column: an existential or opaque type has no fixed column type; \(suffix)",
                    line: 7, column: 16),
                DiagnosticSpec(
                    message:
                        "property 'twice' has type 'Int??', which cannot be stored in a column: nested optionals cannot be told apart from NULL; \(suffix)",
                    line: 8, column: 16),
            ])
    }

    @Test func collectionsNeedJSONStorageWithAFixIt() {
        assertTableExpansion(
            """
            @Table
            struct Post {
                var id: Int64?
                var tags: [String]
            }
            """,
            expandedSource: """
                struct Post {
                    var id: Int64?
                    var tags: [String]
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message:
                        "property 'tags' has collection type '[String]', which has no column representation: store it as JSON with @Column(storage: .json)",
                    line: 4, column: 15, fixIts: [FixItSpec(message: "store it as JSON")])
            ],
            applyFixIts: ["store it as JSON"],
            fixedSource: """
                @Table
                struct Post {
                    var id: Int64?
                    @Column(storage: .json) var tags: [String]
                }
                """)
    }

    /// Issue 36: an enum without SQLValueConvertible gave five errors inside the expansion, with no
    /// fix-it. An enum the macro can see (declared in the struct) gets one error at the property.
    @Test func anEnumThatIsNotAColumnValueGetsOneErrorWithFixIts() {
        let message =
            "property 'genre' has type 'Genre', but enum 'Genre' is not SQLValueConvertible, so it cannot be stored in"
            + " a column: add SQLValueConvertible to its declaration (it then stores its raw value), or store the"
            + " property as JSON with @Column(storage: .json)"
        assertTableExpansion(
            """
            @Table
            struct Book {
                enum Genre: String, Codable {
                    case fiction, poetry
                }
                var id: Int64?
                var genre: Genre
            }
            """,
            expandedSource: """
                struct Book {
                    enum Genre: String, Codable {
                        case fiction, poetry
                    }
                    var id: Int64?
                    var genre: Genre
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message: message, line: 7, column: 16,
                    fixIts: [
                        FixItSpec(message: "make 'Genre' SQLValueConvertible"), FixItSpec(message: "store it as JSON"),
                    ])
            ],
            applyFixIts: ["make 'Genre' SQLValueConvertible"],
            fixedSource: """
                @Table
                struct Book {
                    enum Genre: String, Codable, SQLValueConvertible {
                        case fiction, poetry
                    }
                    var id: Int64?
                    var genre: Genre
                }
                """)
        assertTableExpansion(
            """
            @Table
            struct Book {
                enum Genre: String, Codable {
                    case fiction, poetry
                }
                var id: Int64?
                var genre: Genre?
            }
            """,
            expandedSource: """
                struct Book {
                    enum Genre: String, Codable {
                        case fiction, poetry
                    }
                    var id: Int64?
                    var genre: Genre?
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message: message.replacingOccurrences(of: "type 'Genre'", with: "type 'Genre?'"), line: 7,
                    column: 16,
                    fixIts: [
                        FixItSpec(message: "make 'Genre' SQLValueConvertible"), FixItSpec(message: "store it as JSON"),
                    ])
            ],
            applyFixIts: ["store it as JSON"],
            fixedSource: """
                @Table
                struct Book {
                    enum Genre: String, Codable {
                        case fiction, poetry
                    }
                    var id: Int64?
                    @Column(storage: .json) var genre: Genre?
                }
                """)
    }

    /// A nested enum that says it is a column value expands as any other property type.
    @Test func aStorableNestedEnumIsAccepted() {
        for conformance in ["SQLValueConvertible", "Slate.SQLValueConvertible", "JSONStorable"] {
            let file = Parser.parse(
                source: """
                    @Table
                    struct Book {
                        enum Genre: String, \(conformance) { case fiction, poetry }
                        var id: Int64?
                        var genre: Genre
                    }
                    """)
            let context = BasicMacroExpansionContext(lexicalContext: [], expansionDiscriminator: "", sourceFiles: [:])
            let expanded = file.expand(
                macroSpecs: slateMacroSpecs, contextGenerator: { _ in context }, indentationWidth: .spaces(4))
            #expect(context.diagnostics.isEmpty, "\(conformance): \(context.diagnostics.map(\.message))")
            #expect(expanded.description.contains("extension Book: Slate.Table"), "\(conformance)")
        }
    }

    @Test func implicitlyUnwrappedOptionalGetsAFixIt() {
        assertTableExpansion(
            """
            @Table
            struct User {
                var id: Int64?
                var name: String!
            }
            """,
            expandedSource: """
                struct User {
                    var id: Int64?
                    var name: String!
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message: "property 'name' is implicitly unwrapped: declare it optional ('?') to store NULL",
                    line: 4, column: 15, fixIts: [FixItSpec(message: "make it optional")])
            ],
            applyFixIts: ["make it optional"],
            fixedSource: """
                @Table
                struct User {
                    var id: Int64?
                    var name: String?
                }
                """)
    }

    @Test func duplicateColumnNames() {
        assertTableExpansion(
            """
            @Table
            struct Person {
                var id: Int64?
                var name: String
                @Column("NAME") var displayName: String
            }
            """,
            expandedSource: """
                struct Person {
                    var id: Int64?
                    var name: String
                    var displayName: String
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message:
                        "property 'displayName' maps to column \"NAME\", already used by 'name' (SQLite column names are case-insensitive); give one of them another name with @Column(\"…\")",
                    line: 5, column: 5,
                    notes: [NoteSpec(message: "column \"NAME\" is first used by 'name' here", line: 4, column: 5)])
            ])
    }

    @Test func missingTypeAnnotationGetsAFixIt() {
        assertTableExpansion(
            """
            @Table
            struct Counter {
                var id: Int64?
                var count = 0
            }
            """,
            expandedSource: """
                struct Counter {
                    var id: Int64?
                    var count = 0
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message: "property 'count' needs an explicit type annotation: @Table reads the column type from it",
                    line: 4, column: 9, fixIts: [FixItSpec(message: "add ': Int'")])
            ],
            applyFixIts: ["add ': Int'"],
            fixedSource: """
                @Table
                struct Counter {
                    var id: Int64?
                    var count: Int = 0
                }
                """)
    }

    @Test func letWithInitialValueGetsAFixIt() {
        assertTableExpansion(
            """
            @Table
            struct Setting {
                var id: Int64?
                let version: Int = 1
            }
            """,
            expandedSource: """
                struct Setting {
                    var id: Int64?
                    let version: Int = 1
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message:
                        "property 'version' is a 'let' with an initial value, so it cannot be read from the database; make it 'var', or mark it @Ignored",
                    line: 4, column: 5, fixIts: [FixItSpec(message: "make it 'var'")])
            ],
            applyFixIts: ["make it 'var'"],
            fixedSource: """
                @Table
                struct Setting {
                    var id: Int64?
                    var version: Int = 1
                }
                """)
    }

    @Test func lazyPropertyGetsAFixIt() {
        assertTableExpansion(
            """
            @Table
            struct Report {
                var id: Int64?
                lazy var summary: String = ""
            }
            """,
            expandedSource: """
                struct Report {
                    var id: Int64?
                    lazy var summary: String = ""
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message: "lazy property 'summary' cannot be a column; mark it @Ignored",
                    line: 4, column: 5, fixIts: [FixItSpec(message: "mark it @Ignored")])
            ],
            applyFixIts: ["mark it @Ignored"],
            fixedSource: """
                @Table
                struct Report {
                    var id: Int64?
                    @Ignored lazy var summary: String = ""
                }
                """)
    }

    @Test func ignoredPropertyNeedsADefault() {
        assertTableExpansion(
            """
            @Table
            struct Item {
                var id: Int64?
                @Ignored var rank: Int
            }
            """,
            expandedSource: """
                struct Item {
                    var id: Int64?
                    var rank: Int
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message:
                        "ignored property 'rank' needs a default value: records decoded from rows set only their columns",
                    line: 4, column: 18)
            ])
    }

    @Test func genericTypesAreRejected() {
        assertTableExpansion(
            """
            @Table
            struct Box<Value> {
                var id: Int64?
            }
            """,
            expandedSource: """
                struct Box<Value> {
                    var id: Int64?
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message: "@Table does not support generic types: a table's columns need concrete types", line: 2,
                    column: 8)
            ])
    }

    @Test func argumentsMustBeLiterals() {
        assertTableExpansion(
            """
            @Table(tableName)
            struct Named {
                var id: Int64?
                @Column(storage: .compressed) var body: String
            }
            """,
            expandedSource: """
                struct Named {
                    var id: Int64?
                    var body: String
                }
                """,
            diagnostics: [
                DiagnosticSpec(message: "@Table argument 'name' must be a string literal", line: 1, column: 8),
                DiagnosticSpec(
                    message: "@Column argument 'storage' must be '.json', '.date(…)' or '.uuid(…)'", line: 4, column: 22
                ),
            ])
    }

    @Test func propertyAttributesApplyOnlyToProperties() {
        assertTableExpansion(
            """
            struct Helper {
                @Column func name() -> String { "" }
            }
            """,
            expandedSource: """
                struct Helper {
                    func name() -> String { "" }
                }
                """,
            diagnostics: [
                DiagnosticSpec(message: "@Column applies to a stored property of a @Table struct", line: 2, column: 5)
            ])
    }
}
