import Foundation
import SlateMacrosPlugin
import SwiftParser
import SwiftSyntax
import SwiftSyntaxMacroExpansion
import SwiftSyntaxMacros
import SwiftSyntaxMacrosGenericTestSupport
import Testing

/// The macros under test, with the conformances `@Table` may add.
let slateMacroSpecs: [String: MacroSpec] = {
    var specs: [String: MacroSpec] = [
        "Table": MacroSpec(type: TableMacro.self, conformances: ["Table", "PrimaryKeyedTable", "SelfManagingTable"]),
        "ColumnGroup": MacroSpec(type: ColumnGroupMacro.self, conformances: ["ColumnGroup"]),
    ]
    for name in ["Column", "PrimaryKey", "Ignored", "Transient", "Unique", "Indexed", "ForeignKey", "Grouped"] {
        specs[name] = MacroSpec(type: ColumnAttributeMacro.self)
    }
    return specs
}()

/// Expands `source` and checks the result, the diagnostics and, when given, the source with
/// fix-its applied; failures are recorded as Swift Testing issues at the caller's location.
func assertTableExpansion(
    _ source: String,
    expandedSource: String,
    diagnostics: [DiagnosticSpec] = [],
    applyFixIts: [String]? = nil,
    fixedSource: String? = nil,
    sourceLocation: Testing.SourceLocation = #_sourceLocation
) {
    // SLATE_PRINT_EXPANSIONS=1 prints each actual expansion, to update expectations after an
    // intended change of the emitter (then review the diff).
    if ProcessInfo.processInfo.environment["SLATE_PRINT_EXPANSIONS"] != nil {
        let file = Parser.parse(source: source)
        let expanded = file.expand(
            macroSpecs: slateMacroSpecs,
            contextGenerator: { syntax in
                BasicMacroExpansionContext(lexicalContext: [], expansionDiscriminator: "", sourceFiles: [:])
            },
            indentationWidth: .spaces(4))
        print(
            "@@EXPANSION line=\(sourceLocation.line)\n\(expanded.description.trimmingCharacters(in: .newlines))\n@@END")
    }
    assertMacroExpansion(
        source,
        expandedSource: expandedSource,
        diagnostics: diagnostics,
        macroSpecs: slateMacroSpecs,
        applyFixIts: applyFixIts,
        fixedSource: fixedSource,
        failureHandler: { failure in
            Issue.record(Comment(rawValue: failure.message), sourceLocation: sourceLocation)
        })
}
