// Context for the "Encrypted databases" article (see docs/snippets/README.md): its API exists only
// with the SQLCipher trait.
// snippet-check: traits SQLCipher
import Foundation
import Slate

func snippetFixtures(passphrase: String, path: String, configuration: inout Database.Configuration) {}
