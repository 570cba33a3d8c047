// A row read in a step loop cannot be kept in a variable outside the loop.
import Slate

func rowKeptPastItsStep(db: Database) throws {
    var kept: Row?
    let statement = try db.prepare(sql: "SELECT 1")
    while try statement.step() {
        statement.withCurrentRow { row in
            kept = row  // expected-error: implicit conversion to 'Row?' is consuming
        }
    }
    _ = kept?.count
}
