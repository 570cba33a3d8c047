// Context for the "Live queries" article (see docs/snippets/README.md): the table its snippets
// observe, and stand-ins for an app's user interface.
import Dispatch
import Foundation
import SlateMacros

@Table struct Player: Hashable, Sendable {
    var id: Int64?
    var name: String
    var score: Int64
}

/// Stands for a label of an app's user interface.
final class Label: @unchecked Sendable {
    var text: String?
}

/// Stands for code that shows a value.
func show<Value>(_ value: Value) {}

func snippetFixtures(pool: DatabasePool, db: Database, label: Label) {}
