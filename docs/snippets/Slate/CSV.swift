// Context for the "CSV import and export" article (see docs/snippets/README.md).
import Foundation
import Slate

func snippetFixtures(db: Database, url: URL, limit: Double, userCancelled: Bool) {}
