import Foundation
import Slate
import SlateGenerator
import Testing

// The peer-shaped schemas of Fixtures/peers (a reference library shaped like Zotero's, a
// messenger's store shaped like Signal's, a flashcard collection shaped like Anki's; the tables
// are Slate's own). The build plugin generates them into `SlateGeneratorTestsDatabase` with the
// other fixtures, so they compile with every build of this target, and CI's warning check covers
// the plugin's output. These tests check the association names the generator chose, then run
// eager loads through them against the hand-written N+1 loop.

@Suite("Generated associations on peer-shaped schemas")
struct GeneratedPeerSchemaTests {
    typealias Work = HardCases.Work
    typealias Shelf = HardCases.Shelf
    typealias Folder = HardCases.Folder
    typealias Conversation = HardCases.ModelConversation
    typealias Message = HardCases.ModelMessage
    typealias MediaCaption = HardCases.MediaCaption
    typealias GalleryItem = HardCases.MediaGalleryItem
    typealias Payload = HardCases.SendLogPayload
    typealias FactKind = HardCases.FactKind
    typealias KindField = HardCases.KindField

    static let peerSchemas = ["flashcards", "messenger", "reference_library"]

    /// The members of each record's `Columns` in `source` (column properties, then associations),
    /// by record type name: generated records at the top level, `Columns` inside them.
    static func columnsMembers(_ source: String) -> [String: [String]] {
        var members: [String: [String]] = [:]
        var record: String?
        var inColumns = false
        for line in source.split(separator: "\n", omittingEmptySubsequences: false) {
            if let match = line.wholeMatch(of: /(?:public )?struct (\w+): .*Table.*\{/) {
                record = String(match.1)
            } else if line.hasPrefix("    ") && line.contains("struct Columns: ") {
                inColumns = record != nil
            } else if inColumns, line == "    }" {
                inColumns = false
            } else if inColumns, let record,
                let match = line.firstMatch(of: #/^ {8}(?:public )?(?:let|var) (`?\w+`?):/#)
            {
                members[record, default: []].append(String(match.1))
            }
        }
        return members
    }

    /// The number of `SELECT` statements `body` runs.
    func selectCount(_ db: Database, _ body: () throws -> Void) rethrows -> Int {
        var count = 0
        let observation = db.trace(.statement) { event in
            if case .statement(let statement) = event, statement.sql.hasPrefix("SELECT") { count += 1 }
        }
        defer { observation.cancel() }
        try body()
        return count
    }

    // MARK: Names

    @Test(arguments: peerSchemas)
    func associationNamesNeverCollideWithColumnsOrEachOther(_ schema: String) throws {
        for style in [GeneratorConfiguration.Style.slate, .both] {
            var configuration = GeneratorConfiguration()
            configuration.style = style
            let source = try CodeGenerator.generate(
                inputs: [TestFiles.fixture("peers/\(schema).sql")], configuration: configuration)
            let members = Self.columnsMembers(source)
            #expect(members.count >= 6, "\(schema): every table has its Columns")
            for (record, names) in members {
                #expect(Set(names).count == names.count, "\(schema).\(record): \(names)")
            }
        }
    }

    @Test func namesFollowTheKeysOfTheReferenceLibrary() throws {
        let source = try CodeGenerator.generate(inputs: [TestFiles.fixture("peers/reference_library.sql")])
        let members = Self.columnsMembers(source)
        // `shelf` and `works` are columns: the associations take other names.
        #expect(members["Work"]?.contains("shelfShelf") == true)
        #expect(members["Shelf"]?.contains("works2") == true)
        // Two keys to one table: each named by its columns.
        for name in [
            "workNotesByWorkID", "workNotesByParentWorkID", "relatedWorksByWorkID", "relatedWorksByRelatedWorkID",
        ] {
            #expect(members["Work"]?.contains(name) == true, "\(name)")
        }
        // Through the pure linking table only: `folderWorks` has a column of its own, and
        // `relatedWorks` links a table with itself.
        #expect(members["Work"]?.contains("labels") == true)
        #expect(members["Label"]?.contains("works") == true)
        #expect(members["Folder"]?.contains("works") == false)
        #expect(members["Folder"]?.contains("foldersByParentFolderID") == true)
        // Keys to tables of another schema file give no association.
        #expect(members["Work"]?.contains("workTypeID") == true)  // the column only
        #expect(members["Work"]?.contains("workType") == false)
        #expect(members["WorkField"]?.contains("field") == false)
        #expect(members["WorkField"]?.contains("value") == true)  // the untyped key to fieldValues
    }

    @Test func aKeyBesideAnUnresolvedKeyToTheSameTableIsNamed() throws {
        // `media_caption` has two keys to `media_gallery_items`: one by its unique column, one to
        // the primary key it does not have. The runtime looks among both, so the association names
        // its columns; without them, using it threw "2 foreign keys".
        let source = try CodeGenerator.generate(inputs: [TestFiles.fixture("peers/messenger.sql")])
        #expect(
            source.contains(
                #"var attachment: BelongsTo<MediaCaption, MediaGalleryItem> { .belongsTo(id.qualifier, foreignKey: ["attachmentId"]) }"#
            ))
        #expect(source.contains("var mediaCaptionsByAttachmentId: HasMany<MediaGalleryItem, MediaCaption>"))
        let members = Self.columnsMembers(source)
        #expect(members["MediaCaption"]?.contains("galleryItem") == true)  // the column only
        #expect(members["Reaction"]?.contains("messageModelMessage") == true)  // `message` is a column
    }

    @Test func tablesWithoutForeignKeysGetNoAssociation() throws {
        let source = try CodeGenerator.generate(inputs: [TestFiles.fixture("peers/flashcards.sql")])
        let associations = source.split(separator: "\n").filter {
            $0.contains(": BelongsTo<") || $0.contains(": HasMany<") || $0.contains(": HasOne<")
        }
        #expect(associations.count == 2)
        #expect(associations.allSatisfy { $0.contains("KindField") && $0.contains("FactKind") })
    }

    // MARK: Eager loads

    @Test func referenceLibraryLoadsThroughEveryKindOfKey() throws {
        let db = try hardCaseDatabase()
        // `workTypes` and `fieldDefinitions` are another schema file's tables.
        try db.execute(sql: "PRAGMA foreign_keys = OFF")
        try db.execute(
            sql: """
                INSERT INTO shelves (shelfID, shelfType, works) VALUES (1, 'user', 2), (2, 'group', 0);
                INSERT INTO works (workID, workTypeID, shelfID, shelf, key) VALUES
                    (1, 1, 1, 'mine', 'A'), (2, 1, 1, NULL, 'B'), (3, 2, NULL, NULL, 'C');
                INSERT INTO labels (labelID, name, type) VALUES (1, 'read', 0), (2, 'cite', 0);
                INSERT INTO workLabels (workID, labelID) VALUES (1, 1), (1, 2), (2, 2);
                INSERT INTO workNotes (workID, parentWorkID, note) VALUES (3, 1, 'about A');
                INSERT INTO folders (folderID, folderName, parentFolderID) VALUES
                    (1, 'root', NULL), (2, 'child', 1), (3, 'grandchild', 2), (4, 'other', 1);
                """)
        var shelves: [(Shelf, [Work])] = []
        #expect(
            try selectCount(db) {
                shelves = try Shelf.all().order(by: \.shelfID).including(all: \.works2) { $0.order(by: \.workID) }
                    .fetchAll(db)
            } == 2)
        let loop = try Shelf.all().order(by: \.shelfID).fetchAll(db).map {
            try Work.belonging(to: $0).order(by: \.workID).fetchAll(db)
        }
        #expect(shelves.map(\.1) == loop)
        #expect(shelves.map { $0.1.map(\.key) } == [["A", "B"], []])

        let works = try Work.all().order(by: \.workID)
            .including(optional: \.shelfShelf)
            .including(all: \.labels) { $0.order(by: \.labelID) }
            .fetchAll(db)
        #expect(works.map { $0.1?.shelfType } == ["user", "user", nil])
        #expect(works.map { $0.2.map(\.name) } == [["read", "cite"], ["cite"], []])
        let notes = try Work.all().order(by: \.workID)
            .including(all: \.workNotesByWorkID)
            .including(all: \.workNotesByParentWorkID)
            .fetchAll(db)
        #expect(notes.map { $0.1.compactMap(\.note) } == [[], [], ["about A"]])
        #expect(notes.map { $0.2.compactMap(\.note) } == [["about A"], [], []])

        // The tree, two levels down from the root.
        let roots = try Folder.where { $0.parentFolderID == nil }
            .including(all: \.foldersByParentFolderID) {
                $0.order(by: \.folderID).including(all: \.foldersByParentFolderID) { $0.order(by: \.folderID) }
            }
            .fetchAll(db)
        #expect(roots.map(\.0.folderName) == ["root"])
        #expect(roots[0].1.map(\.0.folderName) == ["child", "other"])
        #expect(roots[0].1.map { $0.1.map(\.folderName) } == [["grandchild"], []])
    }

    @Test func messengerLoadsByUniqueTextKeysAndIntoATableWithoutPrimaryKey() throws {
        let db = try hardCaseDatabase()
        // `media_caption.galleryItem` references a primary key `media_gallery_items` lacks: with
        // foreign keys enforced, SQLite refuses every write to that table ("foreign key mismatch").
        try db.execute(sql: "PRAGMA foreign_keys = OFF")
        try db.execute(
            sql: """
                INSERT INTO model_Conversation (id, recordType, uniqueId, name) VALUES (1, 0, 'c-1', 'Ann'), (2, 0, 'c-2', 'Bob');
                INSERT INTO model_Message (id, uniqueId, uniqueConversationId, timestamp, body, quotedMessageRowId) VALUES
                    (1, 'm-1', 'c-1', 10, 'hi', NULL), (2, 'm-2', 'c-1', 20, 'hello', 1), (3, 'm-3', 'c-2', 30, 'yo', NULL);
                INSERT INTO media_gallery_items (attachmentId, albumMessageId, originalAlbumOrder) VALUES (100, 1, 0), (101, 1, 1);
                INSERT INTO media_caption (id, attachmentId, caption) VALUES (1, 100, 'first'), (2, NULL, 'loose');
                INSERT INTO SendLog_Payload (payloadId, content, sentTimestamp) VALUES (1, x'00', 5), (2, x'01', 6);
                INSERT INTO SendLog_Recipient (payloadId, recipientId, deviceId) VALUES (1, 'r-1', 1), (1, 'r-1', 2), (1, 'r-2', 1);
                """)
        // Keyed by `uniqueId`, a unique text column, not the primary key.
        let conversations = try Conversation.all().order(by: \.id).including(all: \.modelMessages) {
            $0.order(by: \.id)
        }
        .fetchAll(db)
        let loop = try Conversation.all().order(by: \.id).fetchAll(db).map {
            try Message.belonging(to: $0).order(by: \.id).fetchAll(db)
        }
        #expect(conversations.map(\.1) == loop)
        #expect(conversations.map { $0.1.map(\.uniqueId) } == [["m-1", "m-2"], ["m-3"]])

        let messages = try Message.all().order(by: \.id)
            .including(required: \.uniqueConversation)
            .including(optional: \.quotedMessageRow)
            .fetchAll(db)
        #expect(messages.map(\.1.name) == ["Ann", "Ann", "Bob"])
        #expect(messages.map { $0.2?.uniqueId } == [nil, "m-1", nil])

        // The parent has no primary key: the key is its unique column.
        let captions = try MediaCaption.all().order(by: \.id).including(optional: \.attachment).fetchAll(db)
        #expect(captions.map { $0.1?.attachmentId } == [100, nil])
        let items = try GalleryItem.all().order(by: \.attachmentId).including(all: \.mediaCaptionsByAttachmentId)
            .fetchAll(db)
        #expect(items.map { $0.1.map(\.caption) } == [["first"], []])

        // A composite primary key that starts with the foreign key.
        let payloads = try Payload.all().order(by: \.payloadId).including(all: \.sendLogRecipients).fetchAll(db)
        #expect(
            payloads.map { $0.1.map { "\($0.recipientId)/\($0.deviceId)" }.sorted() } == [
                ["r-1/1", "r-1/2", "r-2/1"], [],
            ])
    }

    @Test func flashcardsLoadAWithoutRowIDChildByItsCompositeKey() throws {
        let db = try hardCaseDatabase()
        try db.execute(
            sql: """
                INSERT INTO fact_kinds (id, name, mtime_secs, config) VALUES (1, 'Basic', 0, x''), (2, 'Cloze', 0, x'');
                INSERT INTO kind_fields (ntid, ord, name, config) VALUES (1, 1, 'Back', x''), (1, 0, 'Front', x'');
                """)
        let kinds = try FactKind.all().order(by: \.id).including(all: \.kindFields) { $0.order(by: \.ord) }.fetchAll(db)
        #expect(kinds.map { $0.1.map(\.name) } == [["Front", "Back"], []])
        let fields = try KindField.all().order(by: \.ord).including(required: \.ntidFactKind).fetchAll(db)
        #expect(fields.map(\.1.name) == ["Basic", "Basic"])
    }
}
