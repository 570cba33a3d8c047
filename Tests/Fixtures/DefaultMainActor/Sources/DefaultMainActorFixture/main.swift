import Dispatch
import Foundation
import Slate
import SlateMacros

// Everything here is main-actor isolated by default, as in a new app target.

@Table
struct Player: Equatable {
    @PrimaryKey var id: Int64?
    var name: String
    var score: Int
}

/// A model type of the app, on the main actor, that owns the database.
final class Scoreboard {
    let queue: DatabaseQueue
    let best: LiveQuery<[Player]>

    init() throws {
        queue = try DatabaseQueue()
        try queue.write { db in
            try db.createTable(for: Player.self)
            try Player.insert([Player(name: "Arthur", score: 7), Player(name: "Ford", score: 12)]).execute(db)
        }
        best = LiveQuery(in: queue, initialValue: [], queue: DispatchQueue(label: "scoreboard")) { db in
            try Player.where { $0.score > 5 }.order { $0.score.descending() }.fetchAll(db)
        }
    }

    func add(_ player: Player) async throws {
        _ = try await queue.write { db in try Player.insert(player).execute(db) }
    }

    func count() async throws -> Int {
        try await queue.read { db in try Player.all().fetchCount(db) }
    }
}

let board = try Scoreboard()
try await board.add(Player(name: "Zaphod", score: 42))
let count = try await board.count()
let deadline = Date().addingTimeInterval(5)
while board.best.value.count < 3 && Date() < deadline {
    try await Task.sleep(for: .milliseconds(10))
}
let names = board.best.value.map(\.name)
guard count == 3, names == ["Zaphod", "Ford", "Arthur"] else {
    print("DefaultMainActorFixture: unexpected results: \(count) players, live query \(names)")
    exit(1)
}
print("DefaultMainActorFixture: 3 players; live query: \(names.joined(separator: ", "))")
