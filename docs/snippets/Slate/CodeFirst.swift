// Context for the "Code first" article (see docs/snippets/README.md). `Player` and `Bookmark` are
// the article's own.
import Foundation
import SlateMacros

/// The next version of the article's `Player`, whose migration plan the dry run prints.
@Table("Player") struct PlayerV2 {
    var id: Int64?
    var name: String
    var score: Double
}

func snippetFixtures(db: Database, path: String, swiftURL: URL, appSupport: URL, c: Player, u: Player) {}
