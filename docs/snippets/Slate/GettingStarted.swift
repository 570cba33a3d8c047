// Context for the "Getting started" article (see docs/snippets/README.md).
import Foundation
import Slate

func snippetFixtures(db: Database, amount: Int, from: Int64, to: Int64) {}
