import SwiftCompilerPlugin
import SwiftSyntaxMacros

/// The compiler plugin that provides Slate's code-first macros.
@main
struct SlateMacrosPlugin: CompilerPlugin {
    let providingMacros: [Macro.Type] = [
        TableMacro.self,
        ColumnAttributeMacro.self,
        ColumnGroupMacro.self,
    ]
}
