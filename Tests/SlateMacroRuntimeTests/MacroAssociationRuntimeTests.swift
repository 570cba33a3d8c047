import SlateMacros
import Testing

// `@Table` associations at run time: one declared on the referenced side
// (`@Table(associations:)`), one from `@ForeignKey(Type.self)`, and two named over one
// self-referencing key.

@Table(associations: [.hasMany("books", Book.self)])
struct Author: Equatable {
    var id: Int64?
    var name: String
}

@Table
struct Book: Equatable {
    var id: Int64?
    var title: String
    @ForeignKey(Author.self) var authorId: Int64
}

// A type cannot name itself in its own macro's arguments (`@Table(associations: [.hasMany(…,
// Mentee.self)])` is a circular reference): its self-references are written by hand.
@Table
struct Mentee: Equatable {
    var id: Int64?
    var name: String
    @ForeignKey(table: "Mentee") var mentorId: Int64?
}

extension Mentee.Columns {
    var mentor: BelongsTo<Mentee, Mentee> { .belongsTo(id.qualifier, foreignKey: ["mentorId"]) }
    var mentees: HasMany<Mentee, Mentee> { .hasMany(id.qualifier, foreignKey: ["mentorId"]) }
}

@Suite struct MacroAssociationRuntimeTests {
    func database() throws -> Database {
        let db = try Database()
        try db.createTable(for: Author.self)
        try db.createTable(for: Book.self)
        try db.createTable(for: Mentee.self)
        let ann = try db.insert(Author(id: nil, name: "Ann"))
        let bob = try db.insert(Author(id: nil, name: "Bob"))
        _ = try db.insert(Author(id: nil, name: "Cy"))
        for (title, author) in [("B", ann), ("A", ann), ("C", bob)] {
            _ = try db.insert(Book(id: nil, title: title, authorId: author.id ?? 0))
        }
        let root = try db.insert(Mentee(id: nil, name: "root", mentorId: nil))
        _ = try db.insert(Mentee(id: nil, name: "left", mentorId: root.id))
        _ = try db.insert(Mentee(id: nil, name: "right", mentorId: root.id))
        return db
    }

    /// The number of statements `body` runs.
    func statementCount(_ db: Database, _ body: () throws -> Void) rethrows -> Int {
        var count = 0
        let observation = db.trace(.statement) { event in
            if case .statement(let statement) = event, statement.sql.hasPrefix("SELECT") { count += 1 }
        }
        defer { observation.cancel() }
        try body()
        return count
    }

    @Test func hasManyDeclaredOnTheReferencedSideLoadsInTwoStatements() throws {
        let db = try database()
        var loaded: [(Author, [Book])] = []
        let count = try statementCount(db) {
            loaded = try Author.all().order(by: \.id).including(all: \.books) { $0.order(by: \.title) }.fetchAll(db)
        }
        #expect(count == 2)
        #expect(loaded.map(\.0.name) == ["Ann", "Bob", "Cy"])
        #expect(loaded.map { $0.1.map(\.title) } == [["A", "B"], ["C"], []])
    }

    @Test func belongsToFromTheForeignKey() throws {
        let db = try database()
        let books = try Book.all().order(by: \.title).including(required: \.author).fetchAll(db)
        #expect(books.map { "\($0.0.title)\($0.1.name)" } == ["AAnn", "BAnn", "CBob"])
    }

    @Test func namedSelfReferences() throws {
        let db = try database()
        let mentees = try Mentee.all().order(by: \.id).including(optional: \.mentor)
            .including(all: \.mentees) { $0.order(by: \.id) }.fetchAll(db)
        #expect(mentees.map { $0.1?.name } == [nil, "root", "root"])
        #expect(mentees.map { $0.2.map(\.name) } == [["left", "right"], [], []])
    }
}
