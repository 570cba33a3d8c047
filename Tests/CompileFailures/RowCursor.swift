// swift-format-ignore-file
// There is no cursor of live rows: cursors yield values, records or copies (`CopiedRow`).
import Slate

func cursorOfRows(db: Database) throws {
    let cursor = try db.fetchCursor(Row.self, "SELECT 1")  // expected-error: no exact matches in call to instance method 'fetchCursor'
    _ = cursor
}
