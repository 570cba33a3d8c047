import Foundation
import SlateFuzzing

// `slate-fuzz`: the reliability tools of issue 13. See `slate-fuzz --help`.
exit(SlateFuzzCommand.main(Array(CommandLine.arguments.dropFirst())))
