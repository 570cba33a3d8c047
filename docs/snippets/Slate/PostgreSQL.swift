// Context for the "Outgrowing one machine: PostgreSQL" article (see docs/snippets/README.md): the
// table its snippets use.
import Foundation
import PostgresNIO
import SlateMacros
import SlatePostgres

@Table("player") struct Player {
    var id: Int64?
    var name: String
    var score: Int64 = 0
}
