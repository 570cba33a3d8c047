// Context for the SlateMacros catalog's landing page (see docs/snippets/README.md).
import Foundation
import SlateMacros

func snippetFixtures(path: String) {}
