// A row cannot be captured by a closure that outlives the call that lent it.
import Slate

func rowCapturedForLater(db: Database) throws {
    var later: [() -> Int] = []
    _ = try db.fetchAll("SELECT 1") { row in
        later.append { [row] in row.count }  // expected-error: 'row' is borrowed and cannot be consumed
        return 0
    }
    _ = later
}
