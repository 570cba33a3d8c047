import Foundation
import Slate
import Testing

@testable import SlateRecords

/// A `Decoder` or keyed container that `init(from:)` keeps reads nothing once that call is over: it
/// throws a misuse error instead of reading a row that is gone (for a copied row, freed memory), and
/// never shows a later row's values.
@Suite struct KeptDecoderTests {
    /// What the records decoded under ``KeepContext/keeper`` kept, and what using the previous
    /// row's container during the next row's decode gave.
    final class Keeper: @unchecked Sendable {
        var decoders: [any Decoder] = []
        var containers: [KeyedDecodingContainer<Kept.CodingKeys>] = []
        /// Values read through the previous row's container while the next row was decoded: must stay empty.
        var readsThroughOld: [Int] = []
        var errorsThroughOld: [any Error] = []
    }

    enum KeepContext {
        @TaskLocal static var keeper: Keeper?
    }

    struct Kept: Decodable, RowDecodable, Equatable {
        var a: Int
        var b: String?

        enum CodingKeys: String, CodingKey { case a, b }

        init(a: Int, b: String?) {
            self.a = a
            self.b = b
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            if let keeper = KeepContext.keeper {
                if let old = keeper.containers.last {
                    do {
                        keeper.readsThroughOld.append(try old.decode(Int.self, forKey: .a))
                    } catch {
                        keeper.errorsThroughOld.append(error)
                    }
                }
                keeper.decoders.append(decoder)
                keeper.containers.append(container)
            }
            a = try container.decode(Int.self, forKey: .a)
            b = try container.decodeIfPresent(String.self, forKey: .b)
        }

        init(row: borrowing Row) throws {
            self = try row.decodeWithCachedDecoder(Self.self, columnNames: [:])
        }
    }

    /// Keeps its container, then fails.
    struct KeptThenThrows: Decodable {
        struct Failure: Error {}
        nonisolated(unsafe) static var kept: KeyedDecodingContainer<Kept.CodingKeys>?

        init(from decoder: any Decoder) throws {
            Self.kept = try decoder.container(keyedBy: Kept.CodingKeys.self)
            throw Failure()
        }
    }

    func database() throws -> Database {
        let db = try Database()
        try db.execute(
            sql: """
                CREATE TABLE t(a INTEGER, b TEXT);
                INSERT INTO t VALUES (1, 'one'), (2, NULL), (3, 'three');
                """)
        return db
    }

    /// Runs `body` and records whether it threw a misuse error (and nothing else).
    func misuse(_ body: () throws -> Void) -> Bool {
        do {
            try body()
            return false
        } catch let error as DatabaseError {
            return error.resultCode == .misuse && error.message.contains("init(from:)")
        } catch {
            return false
        }
    }

    /// Every way of reading through a kept container or decoder fails without reading.
    func expectEveryUseFails(_ keeper: Keeper) {
        for container in keeper.containers {
            #expect(misuse { _ = try container.decode(Int.self, forKey: .a) })
            #expect(misuse { _ = try container.decodeIfPresent(String.self, forKey: .b) })
            #expect(misuse { _ = try container.decodeIfPresent(Int.self, forKey: .a) })
            #expect(misuse { _ = try container.decodeNil(forKey: .b) })
            #expect(misuse { _ = try container.decode(Date.self, forKey: .a) })
            #expect(misuse { _ = try container.decodeIfPresent(URL.self, forKey: .b) })
            #expect(misuse { _ = try container.superDecoder() })
            let contains = container.contains(.a)
            let keys = container.allKeys
            #expect(!contains)
            #expect(keys.isEmpty)
        }
        for decoder in keeper.decoders {
            #expect(misuse { _ = try decoder.container(keyedBy: Kept.CodingKeys.self) })
        }
    }

    @Test func aKeptDecoderOfALiveRowFailsAfterTheFetch() throws {
        let db = try database()
        let keeper = Keeper()
        let records = try KeepContext.$keeper.withValue(keeper) {
            try db.fetchAll(Kept.self, "SELECT a, b FROM t ORDER BY a")
        }
        #expect(records == [Kept(a: 1, b: "one"), Kept(a: 2, b: nil), Kept(a: 3, b: "three")])
        #expect(keeper.containers.count == 3)
        // The previous row's container, used while the next row was decoded, read nothing.
        #expect(keeper.readsThroughOld.isEmpty)
        #expect(keeper.errorsThroughOld.count == 2)
        #expect(keeper.errorsThroughOld.allSatisfy { ($0 as? DatabaseError)?.resultCode == .misuse })
        expectEveryUseFails(keeper)
    }

    @Test func aKeptDecoderOfACopiedRowFailsAfterTheDecode() throws {
        let db = try database()
        let copies = try db.fetchAll(CopiedRow.self, "SELECT a, b FROM t ORDER BY a")
        let decoder = RowDecoder()
        let keeper = Keeper()
        let records = try KeepContext.$keeper.withValue(keeper) {
            try copies.map { try decoder.decode(Kept.self, from: $0) }
        }
        #expect(records.map(\.a) == [1, 2, 3])
        #expect(keeper.readsThroughOld.isEmpty)
        #expect(keeper.errorsThroughOld.count == 2)
        expectEveryUseFails(keeper)
    }

    @Test func aKeptDecoderOfACursorRowFailsOnceTheCursorMoves() throws {
        let db = try database()
        let keeper = Keeper()
        try KeepContext.$keeper.withValue(keeper) {
            let cursor = try db.fetchCursor(Kept.self, "SELECT a, b FROM t ORDER BY a")
            let first = try cursor.next()
            #expect(first == Kept(a: 1, b: "one"))
            // The statement is still on row 1, but the decode that lent it is over.
            expectEveryUseFails(keeper)
            let second = try cursor.next()
            #expect(second == Kept(a: 2, b: nil))
            #expect(keeper.readsThroughOld.isEmpty)
            #expect(keeper.errorsThroughOld.count == 1)
            while try cursor.next() != nil {}
        }
        expectEveryUseFails(keeper)
    }

    @Test func aKeptDecoderFailsAfterTheStatementMovedOnThroughAStatementsRows() throws {
        let db = try database()
        let statement = try db.prepare(sql: "SELECT a, b FROM t ORDER BY a")
        let decoder = RowDecoder()
        let keeper = Keeper()
        var values: [Int] = []
        try KeepContext.$keeper.withValue(keeper) {
            while try statement.step() {
                values.append(try statement.withCurrentRow { try decoder.decode(Kept.self, from: $0) }.a)
            }
        }
        #expect(values == [1, 2, 3])
        #expect(keeper.readsThroughOld.isEmpty)
        expectEveryUseFails(keeper)
        // The statement runs again: the kept containers still read nothing.
        try statement.reset()
        #expect(try statement.step())
        expectEveryUseFails(keeper)
    }

    @Test func aContainerKeptByAThrowingInitFailsAfterwards() throws {
        let db = try database()
        let decoder = RowDecoder()
        let thrown = db.fetchAllThrows {
            _ = try db.fetchAll("SELECT a, b FROM t") { try decoder.decode(KeptThenThrows.self, from: $0) }
        }
        #expect(thrown != nil)
        let kept = try #require(KeptThenThrows.kept)
        #expect(misuse { _ = try kept.decode(Int.self, forKey: .a) })
        // The next decode of the same decoder does not revive it.
        _ = try db.fetchAll("SELECT a, b FROM t") { try decoder.decode(Kept.self, from: $0) }
        #expect(misuse { _ = try kept.decode(Int.self, forKey: .a) })
    }

    /// A container nobody kept is handed out again for the next row; a kept one is not.
    @Test func onlyAContainerNobodyKeptIsReused() throws {
        let db = try database()
        let decoder = RowDecoder()
        _ = try db.fetchAll("SELECT a, b FROM t ORDER BY a") { try decoder.decode(Kept.self, from: $0) }
        let made = try #require(decoder.state).containersMade
        #expect(made == 1)
        let keeping = RowDecoder()
        _ = try KeepContext.$keeper.withValue(Keeper()) {
            try db.fetchAll("SELECT a, b FROM t ORDER BY a") { try keeping.decode(Kept.self, from: $0) }
        }
        let madeWhileKept = try #require(keeping.state).containersMade
        #expect(madeWhileKept == 3)
    }

    struct TwoContainers: Decodable, Equatable {
        var a: Int
        var b: String?
        init(from decoder: any Decoder) throws {
            let first = try decoder.container(keyedBy: Kept.CodingKeys.self)
            let second = try decoder.container(keyedBy: Kept.CodingKeys.self)
            a = try first.decode(Int.self, forKey: .a)
            b = try second.decodeIfPresent(String.self, forKey: .b)
        }
    }

    /// Two containers of one decode (the first still held when the second is asked for) both read
    /// the decode's row, row after row.
    @Test func twoContainersOfOneDecodeBothRead() throws {
        let db = try database()
        let decoder = RowDecoder()
        let records = try db.fetchAll("SELECT a, b FROM t ORDER BY a") {
            try decoder.decode(TwoContainers.self, from: $0)
        }
        #expect(records.map(\.a) == [1, 2, 3])
        #expect(records.map(\.b) == ["one", nil, "three"])
    }

    /// A decode nested in `init(from:)` (the same decoder, another row) leaves the outer decode's
    /// container reading the outer row.
    @Test func aNestedDecodeLeavesTheOuterContainerReading() throws {
        let db = try database()
        let copies = try db.fetchAll(CopiedRow.self, "SELECT a, b FROM t ORDER BY a")
        let decoder = RowDecoder()
        struct Outer: Decodable {
            nonisolated(unsafe) static var inner: (RowDecoder, CopiedRow)?
            var a: Int
            var innerA: Int
            var b: String?
            init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: Kept.CodingKeys.self)
                a = try container.decode(Int.self, forKey: .a)
                let (rowDecoder, row) = try #require(Self.inner)
                innerA = try rowDecoder.decode(Kept.self, from: row).a
                b = try container.decodeIfPresent(String.self, forKey: .b)
            }
        }
        Outer.inner = (decoder, copies[2])
        let outer = try decoder.decode(Outer.self, from: copies[0])
        #expect(outer.a == 1)
        #expect(outer.innerA == 3)
        #expect(outer.b == "one")
    }
}

extension Database {
    /// The error `body` throws, or `nil`.
    fileprivate func fetchAllThrows(_ body: () throws -> Void) -> (any Error)? {
        do {
            try body()
            return nil
        } catch {
            return error
        }
    }
}
