import Foundation
import Slate

// Small tables for rendering and write tests, created through the CREATE TABLE renderer.

struct Person: PrimaryKeyedTable, Hashable, Sendable {
    var id: Int64?
    var name: String
    var age: Int64
    var email: String?
    var score: Double

    static let tableName = "person"
    static let columnDescriptors: [ColumnDescriptor] = [
        .init(name: "id", sqlType: "INTEGER", isNullable: false, primaryKeyPosition: 1, isAutoIncrement: true),
        .init(name: "name", sqlType: "TEXT", isNullable: false),
        .init(name: "age", sqlType: "INTEGER", isNullable: false, defaultSQL: "0"),
        .init(name: "email", sqlType: "TEXT", isUnique: true, collation: "NOCASE"),
        .init(name: "score", sqlType: "REAL", isNullable: false, defaultSQL: "0.0"),
    ]
    static let indexes: [IndexDescriptor] = [.init(name: "person_on_name", columns: ["name"])]

    struct Columns: TableColumns {
        let id: Column<Person, Int64?>
        let name: Column<Person, String>
        let age: Column<Person, Int64>
        let email: Column<Person, String?>
        let score: Column<Person, Double>
        init(qualifier: String) {
            id = Column(qualifier, "id")
            name = Column(qualifier, "name")
            age = Column(qualifier, "age")
            email = Column(qualifier, "email")
            score = Column(qualifier, "score")
        }
    }

    init(id: Int64? = nil, name: String, age: Int64 = 0, email: String? = nil, score: Double = 0) {
        self.id = id
        self.name = name
        self.age = age
        self.email = email
        self.score = score
    }

    init(row: borrowing Row) throws {
        id = try row.decode(at: 0)
        name = try row.decode(at: 1)
        age = try row.decode(at: 2)
        email = try row.decode(at: 3)
        score = try row.decode(at: 4)
    }

    func bindColumns(to statement: Statement, startingAt index: Int) throws {
        try id.bind(to: statement, at: index)
        try name.bind(to: statement, at: index + 1)
        try age.bind(to: statement, at: index + 2)
        try email.bind(to: statement, at: index + 3)
        try score.bind(to: statement, at: index + 4)
    }

    mutating func didInsert(rowID: Int64) { id = rowID }

    var primaryKey: Int64? { id }
}

struct Pet: PrimaryKeyedTable, Hashable, Sendable {
    var id: Int64?
    var ownerId: Int64?
    var name: String
    var species: String

    static let tableName = "pet"
    static let columnDescriptors: [ColumnDescriptor] = [
        .init(name: "id", sqlType: "INTEGER", isNullable: false, primaryKeyPosition: 1),
        .init(name: "ownerId", sqlType: "INTEGER", references: .init(table: "person", column: "id", onDelete: .cascade)),
        .init(name: "name", sqlType: "TEXT", isNullable: false),
        .init(name: "species", sqlType: "TEXT", isNullable: false, defaultSQL: "'cat'"),
    ]

    struct Columns: TableColumns {
        let id: Column<Pet, Int64?>
        let ownerId: Column<Pet, Int64?>
        let name: Column<Pet, String>
        let species: Column<Pet, String>
        init(qualifier: String) {
            id = Column(qualifier, "id")
            ownerId = Column(qualifier, "ownerId")
            name = Column(qualifier, "name")
            species = Column(qualifier, "species")
        }
    }

    init(id: Int64? = nil, ownerId: Int64?, name: String, species: String = "cat") {
        self.id = id
        self.ownerId = ownerId
        self.name = name
        self.species = species
    }

    init(row: borrowing Row) throws {
        id = try row.decode(at: 0)
        ownerId = try row.decode(at: 1)
        name = try row.decode(at: 2)
        species = try row.decode(at: 3)
    }

    func bindColumns(to statement: Statement, startingAt index: Int) throws {
        try id.bind(to: statement, at: index)
        try ownerId.bind(to: statement, at: index + 1)
        try name.bind(to: statement, at: index + 2)
        try species.bind(to: statement, at: index + 3)
    }

    mutating func didInsert(rowID: Int64) { id = rowID }

    var primaryKey: Int64? { id }
}

struct Toy: PrimaryKeyedTable, Hashable, Sendable {
    var id: Int64?
    var petId: Int64
    var name: String

    static let tableName = "toy"
    static let columnDescriptors: [ColumnDescriptor] = [
        .init(name: "id", sqlType: "INTEGER", isNullable: false, primaryKeyPosition: 1),
        .init(name: "petId", sqlType: "INTEGER", isNullable: false, references: .init(table: "pet", column: "id")),
        .init(name: "name", sqlType: "TEXT", isNullable: false),
    ]

    struct Columns: TableColumns {
        let id: Column<Toy, Int64?>
        let petId: Column<Toy, Int64>
        let name: Column<Toy, String>
        init(qualifier: String) {
            id = Column(qualifier, "id")
            petId = Column(qualifier, "petId")
            name = Column(qualifier, "name")
        }
    }

    init(id: Int64? = nil, petId: Int64, name: String) {
        self.id = id
        self.petId = petId
        self.name = name
    }

    init(row: borrowing Row) throws {
        id = try row.decode(at: 0)
        petId = try row.decode(at: 1)
        name = try row.decode(at: 2)
    }

    func bindColumns(to statement: Statement, startingAt index: Int) throws {
        try id.bind(to: statement, at: index)
        try petId.bind(to: statement, at: index + 1)
        try name.bind(to: statement, at: index + 2)
    }

    mutating func didInsert(rowID: Int64) { id = rowID }

    var primaryKey: Int64? { id }
}

/// A composite text key in a WITHOUT ROWID table.
struct Shelf: PrimaryKeyedTable, Hashable, Sendable {
    var building: String
    var number: Int64
    var label: String?

    static let tableName = "shelf"
    static let isWithoutRowID = true
    static let columnDescriptors: [ColumnDescriptor] = [
        .init(name: "building", sqlType: "TEXT", isNullable: false, primaryKeyPosition: 1),
        .init(name: "number", sqlType: "INTEGER", isNullable: false, primaryKeyPosition: 2),
        .init(name: "label", sqlType: "TEXT"),
    ]

    struct Columns: TableColumns {
        let building: Column<Shelf, String>
        let number: Column<Shelf, Int64>
        let label: Column<Shelf, String?>
        init(qualifier: String) {
            building = Column(qualifier, "building")
            number = Column(qualifier, "number")
            label = Column(qualifier, "label")
        }
    }

    init(building: String, number: Int64, label: String? = nil) {
        self.building = building
        self.number = number
        self.label = label
    }

    init(row: borrowing Row) throws {
        building = try row.decode(at: 0)
        number = try row.decode(at: 1)
        label = try row.decode(at: 2)
    }

    func bindColumns(to statement: Statement, startingAt index: Int) throws {
        try building.bind(to: statement, at: index)
        try number.bind(to: statement, at: index + 1)
        try label.bind(to: statement, at: index + 2)
    }

    var primaryKey: (String, Int64) { (building, number) }

    static func primaryKeyArguments(_ key: (String, Int64)) -> [(any SQLBindable)?] { [key.0, key.1] }
}

/// A multi-column foreign key to `Shelf`.
struct Book: PrimaryKeyedTable, Hashable, Sendable {
    var id: Int64?
    var title: String
    var building: String?
    var shelfNumber: Int64?

    static let tableName = "book"
    static let columnDescriptors: [ColumnDescriptor] = [
        .init(name: "id", sqlType: "INTEGER", isNullable: false, primaryKeyPosition: 1),
        .init(name: "title", sqlType: "TEXT", isNullable: false, collation: "NOCASE"),
        .init(name: "building", sqlType: "TEXT"),
        .init(name: "shelfNumber", sqlType: "INTEGER"),
    ]
    static let foreignKeys: [ForeignKeyDescriptor] = [
        .init(columns: ["building", "shelfNumber"], referencedTable: "shelf", referencedColumns: ["building", "number"],
              onDelete: .setNull, onUpdate: .cascade),
    ]
    static let indexes: [IndexDescriptor] = [
        .init(name: "book_on_shelf", columns: ["building", "shelfNumber"]),
        .init(name: "book_on_title", columns: ["title"], isUnique: true),
    ]

    struct Columns: TableColumns {
        let id: Column<Book, Int64?>
        let title: Column<Book, String>
        let building: Column<Book, String?>
        let shelfNumber: Column<Book, Int64?>
        init(qualifier: String) {
            id = Column(qualifier, "id")
            title = Column(qualifier, "title")
            building = Column(qualifier, "building")
            shelfNumber = Column(qualifier, "shelfNumber")
        }
    }

    init(id: Int64? = nil, title: String, building: String?, shelfNumber: Int64?) {
        self.id = id
        self.title = title
        self.building = building
        self.shelfNumber = shelfNumber
    }

    init(row: borrowing Row) throws {
        id = try row.decode(at: 0)
        title = try row.decode(at: 1)
        building = try row.decode(at: 2)
        shelfNumber = try row.decode(at: 3)
    }

    func bindColumns(to statement: Statement, startingAt index: Int) throws {
        try id.bind(to: statement, at: index)
        try title.bind(to: statement, at: index + 1)
        try building.bind(to: statement, at: index + 2)
        try shelfNumber.bind(to: statement, at: index + 3)
    }

    mutating func didInsert(rowID: Int64) { id = rowID }

    var primaryKey: Int64? { id }
}

extension Database {
    /// An in-memory database with the test tables created by the CREATE TABLE renderer.
    static func withTestTables() throws -> Database {
        let db = try Database.memory()
        try db.create(table: Person.self)
        try db.create(table: Pet.self)
        try db.create(table: Toy.self)
        try db.create(table: Shelf.self)
        try db.create(table: Book.self)
        try db.create(table: Message.self)
        return db
    }
}

/// The arguments of a statement, boxed, for comparing in tests.
func argumentValues(_ sql: SQL) throws -> [SQLValue] {
    try sql.arguments.positional.map { try $0?.sqlValue ?? .null }
}

/// Two foreign keys to the same table, so relationships must name the columns.
struct Message: PrimaryKeyedTable, Hashable, Sendable {
    var id: Int64?
    var senderId: Int64
    var recipientId: Int64
    var body: String

    static let tableName = "message"
    static let columnDescriptors: [ColumnDescriptor] = [
        .init(name: "id", sqlType: "INTEGER", isNullable: false, primaryKeyPosition: 1),
        .init(name: "senderId", sqlType: "INTEGER", isNullable: false, references: .init(table: "person")),
        .init(name: "recipientId", sqlType: "INTEGER", isNullable: false, references: .init(table: "person")),
        .init(name: "body", sqlType: "TEXT", isNullable: false),
    ]

    struct Columns: TableColumns {
        let id: Column<Message, Int64?>
        let senderId: Column<Message, Int64>
        let recipientId: Column<Message, Int64>
        let body: Column<Message, String>
        init(qualifier: String) {
            id = Column(qualifier, "id")
            senderId = Column(qualifier, "senderId")
            recipientId = Column(qualifier, "recipientId")
            body = Column(qualifier, "body")
        }
    }

    init(id: Int64? = nil, senderId: Int64, recipientId: Int64, body: String) {
        self.id = id
        self.senderId = senderId
        self.recipientId = recipientId
        self.body = body
    }

    init(row: borrowing Row) throws {
        id = try row.decode(at: 0)
        senderId = try row.decode(at: 1)
        recipientId = try row.decode(at: 2)
        body = try row.decode(at: 3)
    }

    func bindColumns(to statement: Statement, startingAt index: Int) throws {
        try id.bind(to: statement, at: index)
        try senderId.bind(to: statement, at: index + 1)
        try recipientId.bind(to: statement, at: index + 2)
        try body.bind(to: statement, at: index + 3)
    }

    mutating func didInsert(rowID: Int64) { id = rowID }

    var primaryKey: Int64? { id }
}
