// Context for the "Reading values exactly" article (see docs/snippets/README.md): a connection,
// and a row borrowed from a fetch.
import Foundation
import Slate

func snippetFixtures(db: Database, row: borrowing Row) {}
