// A row cannot be captured, even implicitly, by a closure that outlives the call that lent it.
//
// known-compiler-crash: Swift 6.3.1's move-only checker crashes on this instead of diagnosing it
// (any borrowed noncopyable closure parameter captured by an escaping closure does). Either way
// it does not compile; when the compiler diagnoses it, the error below must match.
import Slate

func rowCapturedForLater(db: Database) throws {
    var later: [() -> Int] = []
    _ = try db.fetchAll("SELECT 1") { row in
        later.append { row.count }  // expected-error: escaping closure
        return 0
    }
    _ = later
}
