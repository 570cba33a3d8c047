import Foundation
import SlateMacros
import Testing

/// The README's "Typed tables and queries" snippet, run: `.ci/check-snippets.sh` compiles every
/// snippet of the documentation; this test checks that this one does what the README says.
@Table struct ReadmePlayer {
    @PrimaryKey var id: Int64?
    var name: String
    var score: Int
    var team: String?
}

@Suite struct ReadmeExampleTests {
    @Test func readmeSnippetWorks() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "slate-readme-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }

        let db = try Database(path: directory.appendingPathComponent("game.sqlite").path)
        try db.createTable(for: ReadmePlayer.self)
        let ann = try db.insert(ReadmePlayer(id: nil, name: "Ann", score: 10, team: "red"))
        #expect(ann.id == 1)
        _ = try db.insert(ReadmePlayer(id: nil, name: "Bob", score: 3, team: "red"))
        _ = try db.insert(ReadmePlayer(id: nil, name: "Cid", score: 7, team: nil))
        let leaders = try ReadmePlayer.where { $0.score > 5 && $0.team != nil }
            .order { $0.score.descending() }
            .limit(10)
            .fetchAll(db)
        #expect(leaders.map(\.name) == ["Ann"])
        let names = try ReadmePlayer.where { $0.team == "red" }.select { ($0.name, $0.score) }.fetchAll(db)
        #expect(names.map(\.0) == ["Ann", "Bob"])
        #expect(names.map(\.1) == [10, 3])
        let changed = try ReadmePlayer.update { $0.score.set(to: $0.score + 1) }.where { $0.team == "red" }.execute(db)
        #expect(changed == 2)
        #expect(try ReadmePlayer.where { $0.team == "red" }.select { $0.score }.fetchAll(db) == [11, 4])
        #expect(
            ReadmePlayer.where { $0.name.hasPrefix("A") }.description.contains(#"WHERE "ReadmePlayer"."name" GLOB ?"#))
    }
}
