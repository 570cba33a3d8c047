import Foundation
import Slate

// Small tables for rendering and write tests, created through the CREATE TABLE renderer.

package struct Person: PrimaryKeyedTable, Hashable, Sendable {
    package var id: Int64?
    package var name: String
    package var age: Int64
    package var email: String?
    package var score: Double

    package static let schema = TableSchema(
        name: "person",
        columns: [
            .init(name: "id", type: "INTEGER", primaryKeyPosition: 1, isAutoIncrement: true),
            .init(name: "name", type: "TEXT", isNotNull: true),
            .init(name: "age", type: "INTEGER", isNotNull: true, defaultSQL: "0"),
            .init(name: "email", type: "TEXT", isUnique: true, collation: "NOCASE"),
            .init(name: "score", type: "REAL", isNotNull: true, defaultSQL: "0.0"),
        ],
        indexes: [
            .init(name: "person_on_name", columns: ["name"])
        ])

    package struct Columns: TableColumns {
        package let id: Column<Person, Int64?>
        package let name: Column<Person, String>
        package let age: Column<Person, Int64>
        package let email: Column<Person, String?>
        package let score: Column<Person, Double>
        package init(qualifier: String) {
            id = Column(qualifier, "id")
            name = Column(qualifier, "name")
            age = Column(qualifier, "age")
            email = Column(qualifier, "email")
            score = Column(qualifier, "score")
        }
    }

    package init(id: Int64? = nil, name: String, age: Int64 = 0, email: String? = nil, score: Double = 0) {
        self.id = id
        self.name = name
        self.age = age
        self.email = email
        self.score = score
    }

    package init(row: borrowing Row) throws {
        id = try row.decode(at: 0)
        name = try row.decode(at: 1)
        age = try row.decode(at: 2)
        email = try row.decode(at: 3)
        score = try row.decode(at: 4)
    }

    package func encode<Encoder: ColumnEncoder>(to encoder: inout Encoder) throws(Encoder.Failure) {
        try encoder.encode(id)
        try encoder.encode(name)
        try encoder.encode(age)
        try encoder.encode(email)
        try encoder.encode(score)
    }

    package mutating func didInsert(rowID: Int64) { id = rowID }

    package var primaryKey: Int64? { id }
}

package struct Pet: PrimaryKeyedTable, Hashable, Sendable {
    package var id: Int64?
    package var ownerId: Int64?
    package var name: String
    package var species: String

    package static let schema = TableSchema(
        name: "pet",
        columns: [
            .init(name: "id", type: "INTEGER", primaryKeyPosition: 1),
            .init(name: "ownerId", type: "INTEGER"),
            .init(name: "name", type: "TEXT", isNotNull: true),
            .init(name: "species", type: "TEXT", isNotNull: true, defaultSQL: "'cat'"),
        ],
        foreignKeys: [
            .init(columns: ["ownerId"], referencedTable: "person", referencedColumns: ["id"], onDelete: .cascade)
        ])

    package struct Columns: TableColumns {
        package let id: Column<Pet, Int64?>
        package let ownerId: Column<Pet, Int64?>
        package let name: Column<Pet, String>
        package let species: Column<Pet, String>
        package init(qualifier: String) {
            id = Column(qualifier, "id")
            ownerId = Column(qualifier, "ownerId")
            name = Column(qualifier, "name")
            species = Column(qualifier, "species")
        }
    }

    package init(id: Int64? = nil, ownerId: Int64?, name: String, species: String = "cat") {
        self.id = id
        self.ownerId = ownerId
        self.name = name
        self.species = species
    }

    package init(row: borrowing Row) throws {
        id = try row.decode(at: 0)
        ownerId = try row.decode(at: 1)
        name = try row.decode(at: 2)
        species = try row.decode(at: 3)
    }

    package func encode<Encoder: ColumnEncoder>(to encoder: inout Encoder) throws(Encoder.Failure) {
        try encoder.encode(id)
        try encoder.encode(ownerId)
        try encoder.encode(name)
        try encoder.encode(species)
    }

    package mutating func didInsert(rowID: Int64) { id = rowID }

    package var primaryKey: Int64? { id }
}

package struct Toy: PrimaryKeyedTable, Hashable, Sendable {
    package var id: Int64?
    package var petId: Int64
    package var name: String

    package static let schema = TableSchema(
        name: "toy",
        columns: [
            .init(name: "id", type: "INTEGER", primaryKeyPosition: 1),
            .init(name: "petId", type: "INTEGER", isNotNull: true),
            .init(name: "name", type: "TEXT", isNotNull: true),
        ],
        foreignKeys: [
            .init(columns: ["petId"], referencedTable: "pet", referencedColumns: ["id"])
        ])

    package struct Columns: TableColumns {
        package let id: Column<Toy, Int64?>
        package let petId: Column<Toy, Int64>
        package let name: Column<Toy, String>
        package init(qualifier: String) {
            id = Column(qualifier, "id")
            petId = Column(qualifier, "petId")
            name = Column(qualifier, "name")
        }
    }

    package init(id: Int64? = nil, petId: Int64, name: String) {
        self.id = id
        self.petId = petId
        self.name = name
    }

    package init(row: borrowing Row) throws {
        id = try row.decode(at: 0)
        petId = try row.decode(at: 1)
        name = try row.decode(at: 2)
    }

    package func encode<Encoder: ColumnEncoder>(to encoder: inout Encoder) throws(Encoder.Failure) {
        try encoder.encode(id)
        try encoder.encode(petId)
        try encoder.encode(name)
    }

    package mutating func didInsert(rowID: Int64) { id = rowID }

    package var primaryKey: Int64? { id }
}

/// A composite text key in a WITHOUT ROWID table.
package struct Shelf: PrimaryKeyedTable, Hashable, Sendable {
    package var building: String
    package var number: Int64
    package var label: String?

    package static let schema = TableSchema(
        name: "shelf",
        columns: [
            .init(name: "building", type: "TEXT", isNotNull: true, primaryKeyPosition: 1),
            .init(name: "number", type: "INTEGER", isNotNull: true, primaryKeyPosition: 2),
            .init(name: "label", type: "TEXT"),
        ],
        isWithoutRowID: true)

    package struct Columns: TableColumns {
        package let building: Column<Shelf, String>
        package let number: Column<Shelf, Int64>
        package let label: Column<Shelf, String?>
        package init(qualifier: String) {
            building = Column(qualifier, "building")
            number = Column(qualifier, "number")
            label = Column(qualifier, "label")
        }
    }

    package init(building: String, number: Int64, label: String? = nil) {
        self.building = building
        self.number = number
        self.label = label
    }

    package init(row: borrowing Row) throws {
        building = try row.decode(at: 0)
        number = try row.decode(at: 1)
        label = try row.decode(at: 2)
    }

    package func encode<Encoder: ColumnEncoder>(to encoder: inout Encoder) throws(Encoder.Failure) {
        try encoder.encode(building)
        try encoder.encode(number)
        try encoder.encode(label)
    }

    package var primaryKey: (String, Int64) { (building, number) }

    package static func encode<Encoder: ColumnEncoder>(primaryKey key: (String, Int64), to encoder: inout Encoder)
        throws(Encoder.Failure)
    {
        try encoder.encode(key.0)
        try encoder.encode(key.1)
    }
}

/// A multi-column foreign key to `Shelf`.
package struct Book: PrimaryKeyedTable, Hashable, Sendable {
    package var id: Int64?
    package var title: String
    package var building: String?
    package var shelfNumber: Int64?

    package static let schema = TableSchema(
        name: "book",
        columns: [
            .init(name: "id", type: "INTEGER", primaryKeyPosition: 1),
            .init(name: "title", type: "TEXT", isNotNull: true, collation: "NOCASE"),
            .init(name: "building", type: "TEXT"),
            .init(name: "shelfNumber", type: "INTEGER"),
        ],
        foreignKeys: [
            .init(
                columns: ["building", "shelfNumber"], referencedTable: "shelf",
                referencedColumns: ["building", "number"],
                onDelete: .setNull, onUpdate: .cascade)
        ],
        indexes: [
            .init(name: "book_on_shelf", columns: ["building", "shelfNumber"]),
            .init(name: "book_on_title", columns: ["title"], isUnique: true),
        ])

    package struct Columns: TableColumns {
        package let id: Column<Book, Int64?>
        package let title: Column<Book, String>
        package let building: Column<Book, String?>
        package let shelfNumber: Column<Book, Int64?>
        package init(qualifier: String) {
            id = Column(qualifier, "id")
            title = Column(qualifier, "title")
            building = Column(qualifier, "building")
            shelfNumber = Column(qualifier, "shelfNumber")
        }
    }

    package init(id: Int64? = nil, title: String, building: String?, shelfNumber: Int64?) {
        self.id = id
        self.title = title
        self.building = building
        self.shelfNumber = shelfNumber
    }

    package init(row: borrowing Row) throws {
        id = try row.decode(at: 0)
        title = try row.decode(at: 1)
        building = try row.decode(at: 2)
        shelfNumber = try row.decode(at: 3)
    }

    package func encode<Encoder: ColumnEncoder>(to encoder: inout Encoder) throws(Encoder.Failure) {
        try encoder.encode(id)
        try encoder.encode(title)
        try encoder.encode(building)
        try encoder.encode(shelfNumber)
    }

    package mutating func didInsert(rowID: Int64) { id = rowID }

    package var primaryKey: Int64? { id }
}

extension Database {
    /// An in-memory database with the test tables created by the CREATE TABLE renderer.
    package static func withTestTables() throws -> Database {
        let db = try Database.memory()
        try db.createTable(for: Person.self)
        try db.createTable(for: Pet.self)
        try db.createTable(for: Toy.self)
        try db.createTable(for: Shelf.self)
        try db.createTable(for: Book.self)
        try db.createTable(for: Message.self)
        return db
    }
}

/// The arguments of a statement, boxed, for comparing in tests.
package func argumentValues(_ sql: SQL) throws -> [SQLValue] {
    try sql.arguments.positional.map { try $0?.sqlValue ?? .null }
}

/// Two foreign keys to the same table, so relationships must name the columns.
package struct Message: PrimaryKeyedTable, Hashable, Sendable {
    package var id: Int64?
    package var senderId: Int64
    package var recipientId: Int64
    package var body: String

    package static let schema = TableSchema(
        name: "message",
        columns: [
            .init(name: "id", type: "INTEGER", primaryKeyPosition: 1),
            .init(name: "senderId", type: "INTEGER", isNotNull: true),
            .init(name: "recipientId", type: "INTEGER", isNotNull: true),
            .init(name: "body", type: "TEXT", isNotNull: true),
        ],
        foreignKeys: [
            .init(columns: ["senderId"], referencedTable: "person"),
            .init(columns: ["recipientId"], referencedTable: "person"),
        ])

    package struct Columns: TableColumns {
        package let id: Column<Message, Int64?>
        package let senderId: Column<Message, Int64>
        package let recipientId: Column<Message, Int64>
        package let body: Column<Message, String>
        package init(qualifier: String) {
            id = Column(qualifier, "id")
            senderId = Column(qualifier, "senderId")
            recipientId = Column(qualifier, "recipientId")
            body = Column(qualifier, "body")
        }
    }

    package init(id: Int64? = nil, senderId: Int64, recipientId: Int64, body: String) {
        self.id = id
        self.senderId = senderId
        self.recipientId = recipientId
        self.body = body
    }

    package init(row: borrowing Row) throws {
        id = try row.decode(at: 0)
        senderId = try row.decode(at: 1)
        recipientId = try row.decode(at: 2)
        body = try row.decode(at: 3)
    }

    package func encode<Encoder: ColumnEncoder>(to encoder: inout Encoder) throws(Encoder.Failure) {
        try encoder.encode(id)
        try encoder.encode(senderId)
        try encoder.encode(recipientId)
        try encoder.encode(body)
    }

    package mutating func didInsert(rowID: Int64) { id = rowID }

    package var primaryKey: Int64? { id }
}

/// SQL written one clause per line, as one line: the lines joined with a space, each without its
/// leading spaces. Expected SQL in tests reads one clause per line.
package func oneLine(_ text: String) -> String {
    text.split(separator: "\n").map { $0.drop { $0 == " " } }.joined(separator: " ")
}
