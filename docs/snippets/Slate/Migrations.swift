// Context for the "Migrations" article (see docs/snippets/README.md).
import Foundation
import Slate

func snippetFixtures(db: Database, queue: DatabaseQueue, migrationsURL: URL) {}
