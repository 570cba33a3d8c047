// Context for the "Concurrency" article (see docs/snippets/README.md).
import Foundation
import Slate

func snippetFixtures(queue: DatabaseQueue, path: String, migrator: Migrator) {}
