// A record cannot keep the row it is decoded from.
import Slate

struct Keeper: RowDecodable {
    var row: Row  // expected-error: non-Copyable type 'Row'
    init(row: borrowing Row) throws {
        fatalError("never compiles")
    }
}
