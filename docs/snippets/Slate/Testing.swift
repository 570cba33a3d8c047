// Context for the "Testing apps that use Slate" article (see docs/snippets/README.md): the
// resource bundle its tests read fixtures from.
import Foundation
import Slate
import SlateTesting

extension Bundle {
    /// Stands for the test target's resource bundle, which SwiftPM generates.
    static var module: Bundle { .main }
}
