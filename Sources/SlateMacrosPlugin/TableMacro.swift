import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxBuilder
import SwiftSyntaxMacros

/// `@Table`: conforms a struct to `Table` (and `PrimaryKeyedTable` when it has a key) and to
/// `SelfManagingTable`, with straight-line code that decodes and binds its columns by position.
public struct TableMacro: ExtensionMacro {
    public static func expansion(
        of node: AttributeSyntax,
        attachedTo declaration: some DeclGroupSyntax,
        providingExtensionsOf type: some TypeSyntaxProtocol,
        conformingTo protocols: [TypeSyntax],
        in context: some MacroExpansionContext
    ) throws -> [ExtensionDeclSyntax] {
        var parser = TableParser(context: context)
        guard let model = parser.parse(node: node, declaration: declaration, type: type) else { return [] }
        let requested = Set(protocols.map { name in
            let text = name.trimmedDescription
            return text.split(separator: ".").last.map(String.init) ?? text
        })
        let source = TableCodeGenerator(model: model, requestedConformances: requested).extensionSource()
        guard let extensionDecl = DeclSyntax(stringLiteral: source).as(ExtensionDeclSyntax.self) else { return [] }
        return [extensionDecl]
    }
}

/// A marker for the property attributes (`@Column`, `@PrimaryKey`, `@Ignored`, `@Unique`,
/// `@ForeignKey`, `@Indexed`): `@Table` reads them; on their own they generate nothing.
public struct ColumnAttributeMacro: PeerMacro {
    public static func expansion(
        of node: AttributeSyntax,
        providingPeersOf declaration: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        if !declaration.is(VariableDeclSyntax.self) {
            let name = PropertyAttribute(node)?.rawValue ?? node.attributeName.trimmedDescription
            context.diagnose(Diagnostic(node: Syntax(node), message: TableDiagnostic.attributeOnNonProperty(attribute: name)))
        }
        return []
    }
}

/// Writes the extension's source text.
struct TableCodeGenerator {
    let model: TableModel
    let requestedConformances: Set<String>

    private var access: String { model.accessModifier }

    func extensionSource() -> String {
        let keyColumns = model.primaryKeyColumns
        // Every protocol is spelled out, the inherited `Table` included: the compiler does not
        // infer a conformance implied by one a macro adds.
        var conformances: [String] = []
        if requestedConformances.contains("Table") { conformances.append("Slate.Table") }
        if !keyColumns.isEmpty && requestedConformances.contains("PrimaryKeyedTable") {
            conformances.append("Slate.PrimaryKeyedTable")
        }
        if requestedConformances.contains("SelfManagingTable") { conformances.append("Slate.SelfManagingTable") }

        var lines: [String] = []
        lines.append("extension \(model.typeName)" + (conformances.isEmpty ? "" : ": " + conformances.joined(separator: ", ")) + " {")
        lines.append("    \(access)static let tableName = \(stringLiteral(model.tableName))")
        lines.append("")
        lines.append("    \(access)static let columnDescriptors: [Slate.ColumnDescriptor] = [")
        for column in model.columns { lines.append("        " + descriptor(column) + ",") }
        lines.append("    ]")

        let indexed = model.columns.filter(\.isIndexed)
        if !indexed.isEmpty {
            lines.append("")
            lines.append("    \(access)static let indexes: [Slate.IndexDescriptor] = [")
            for column in indexed {
                let name = stringLiteral(model.tableName + "_" + column.columnName)
                lines.append("        Slate.IndexDescriptor(name: \(name), columns: [\(stringLiteral(column.columnName))]),")
            }
            lines.append("    ]")
        }
        if model.isWithoutRowID {
            lines.append("")
            lines.append("    \(access)static let isWithoutRowID = true")
        }
        let renamed = model.columns.filter { $0.renamedFrom != nil }
        if !renamed.isEmpty {
            lines.append("")
            let entries = renamed.map { "\(stringLiteral($0.columnName)): \(stringLiteral($0.renamedFrom ?? ""))" }
            lines.append("    \(access)static let renamedColumns: [String: String] = [\(entries.joined(separator: ", "))]")
        }
        if let databaseFile = model.databaseFile {
            lines.append("")
            lines.append("    \(access)static let databaseFile: String? = \(stringLiteral(databaseFile))")
        }

        // Typed columns for the query builder.
        lines.append("")
        lines.append("    \(access)struct Columns: Slate.TableColumns {")
        for column in model.columns {
            lines.append("        \(access)let \(column.accessName): Slate.Column<\(model.typeName), \(column.columnValueType)>")
        }
        lines.append("")
        lines.append("        \(access)init(qualifier: String) {")
        for column in model.columns {
            lines.append("            self.\(column.accessName) = Slate.Column(qualifier, \(stringLiteral(column.columnName)))")
        }
        lines.append("        }")
        lines.append("    }")

        // Decoding by position.
        lines.append("")
        lines.append("    \(access)init(row: borrowing Slate.Row) throws {")
        for (index, column) in model.columns.enumerated() {
            lines.append("        self.\(column.accessName) = " + decodeExpression(column, index: index))
        }
        lines.append("    }")

        // Binding by position.
        lines.append("")
        lines.append("    \(access)func bindColumns(to statement: Slate.Statement, startingAt index: Int) throws {")
        for (offset, column) in model.columns.enumerated() {
            lines.append("        " + bindStatement(column, offset: offset))
        }
        lines.append("    }")

        // The primary key.
        if keyColumns.count == 1, let key = keyColumns.first {
            if key.info.holdsRowID, key.storage == .plain, key.isMutable, !model.isWithoutRowID {
                lines.append("")
                lines.append("    \(access)mutating func didInsert(rowID: Int64) {")
                let value = key.info.knownName == "Int64" ? "rowID" : "Int(truncatingIfNeeded: rowID)"
                lines.append("        self.\(key.accessName) = \(value)")
                lines.append("    }")
            }
            lines.append("")
            lines.append("    \(access)var primaryKey: \(key.typeText) {")
            lines.append("        self.\(key.accessName)")
            lines.append("    }")
            if key.storage != .plain {
                lines.append("")
                lines.append("    \(access)static func primaryKeyArguments(_ key: \(key.typeText)) -> [(any Slate.SQLBindable)?] {")
                lines.append("        [" + keyArgument(key, value: "key") + "]")
                lines.append("    }")
            }
        } else if keyColumns.count > 1 {
            let tupleType = "(" + keyColumns.map(\.typeText).joined(separator: ", ") + ")"
            lines.append("")
            lines.append("    \(access)var primaryKey: \(tupleType) {")
            lines.append("        (" + keyColumns.map { "self.\($0.accessName)" }.joined(separator: ", ") + ")")
            lines.append("    }")
            lines.append("")
            lines.append("    \(access)static func primaryKeyArguments(_ key: \(tupleType)) -> [(any Slate.SQLBindable)?] {")
            let values = keyColumns.enumerated().map { index, column in keyArgument(column, value: "key.\(index)") }
            lines.append("        [" + values.joined(separator: ", ") + "]")
            lines.append("    }")
        }
        lines.append("}")
        return lines.joined(separator: "\n")
    }

    /// The `ColumnDescriptor(…)` expression, with only the arguments that differ from the defaults.
    func descriptor(_ column: ColumnModel) -> String {
        var arguments = ["name: \(stringLiteral(column.columnName))", "sqlType: \(column.sqlType.expression)"]
        let keyPosition = model.primaryKeyColumns.firstIndex { $0.columnName == column.columnName }.map { $0 + 1 }
        // A key column is NOT NULL even when its property is optional: `nil` asks SQLite for a rowid.
        if keyPosition != nil || !column.info.isOptional { arguments.append("isNullable: false") }
        if let keyPosition { arguments.append("primaryKeyPosition: \(keyPosition)") }
        if column.isAutoIncrement { arguments.append("isAutoIncrement: true") }
        if column.isUnique { arguments.append("isUnique: true") }
        if let defaultSQL = column.defaultSQL { arguments.append("defaultSQL: \(stringLiteral(defaultSQL))") }
        if let collation = column.collation { arguments.append("collation: \(stringLiteral(collation))") }
        if let references = column.references { arguments.append("references: \(references)") }
        return "Slate.ColumnDescriptor(" + arguments.joined(separator: ", ") + ")"
    }

    func decodeExpression(_ column: ColumnModel, index: Int) -> String {
        switch column.storage {
        case .plain, .uuid:
            return "try row.decode(at: \(index))"
        case .date(let strategy):
            return "try row.date(at: \(index), strategy: \(strategy))"
        case .json:
            if column.info.isOptional {
                return "try row.decode(Slate.JSONEncoded<\(column.info.baseType)>?.self, at: \(index))?.value"
            }
            return "try row.decode(Slate.JSONEncoded<\(column.info.baseType)>.self, at: \(index)).value"
        }
    }

    func bindStatement(_ column: ColumnModel, offset: Int) -> String {
        let position = offset == 0 ? "index" : "index + \(offset)"
        let value = "self.\(column.accessName)"
        switch column.storage {
        case .plain:
            return "try \(value).bind(to: statement, at: \(position))"
        case .date(let strategy):
            return "try statement.bind(\(value), at: Int(\(position)), strategy: \(strategy))"
        case .uuid(let storage):
            return "try statement.bind(\(value), at: Int(\(position)), storage: \(storage))"
        case .json:
            if column.info.isOptional {
                return "try \(value).map(Slate.JSONEncoded<\(column.info.baseType)>.init).bind(to: statement, at: \(position))"
            }
            return "try Slate.JSONEncoded(\(value)).bind(to: statement, at: \(position))"
        }
    }

    /// The bound form of a key value: the value itself, or its SQL value for an explicit storage.
    func keyArgument(_ column: ColumnModel, value: String) -> String {
        switch column.storage {
        case .plain:
            return value
        case .date(let strategy):
            let type = "Slate.DateStrategy"
            let strategyValue = strategy.hasPrefix(".") ? type + strategy : strategy
            return column.info.isOptional
                ? "\(value).map { Slate.EncodedDate($0, strategy: \(strategyValue)) }"
                : "Slate.EncodedDate(\(value), strategy: \(strategyValue))"
        case .uuid(let storage):
            let type = "Slate.UUIDStorage"
            let storageValue = storage.hasPrefix(".") ? type + storage : storage
            return column.info.isOptional ? "\(value).map(\(storageValue).sqlValue(for:))" : "\(storageValue).sqlValue(for: \(value))"
        case .json:
            return column.info.isOptional ? "\(value).map(Slate.JSONEncoded<\(column.info.baseType)>.init)" : "Slate.JSONEncoded(\(value))"
        }
    }
}
