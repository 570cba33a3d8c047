// Context for the README's snippets (see docs/snippets/README.md).
import Foundation
import Slate

func snippetFixtures(db: Database, url: URL, passphrase: String, path: String) {}
