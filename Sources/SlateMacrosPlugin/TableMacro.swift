import SlateCodeModel
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
        let requested = Set(
            protocols.map { name in
                let text = name.trimmedDescription
                return text.split(separator: ".").last.map(String.init) ?? text
            })
        let source = TableCodeGenerator(model: model, requestedConformances: requested).extensionSource()
        // An expansion that does not parse is a bug of the macro: say so, never expand to nothing.
        guard let extensionDecl = DeclSyntax(stringLiteral: source).as(ExtensionDeclSyntax.self),
            !extensionDecl.hasError
        else {
            context.diagnose(Diagnostic(node: Syntax(node), message: TableDiagnostic.expansionFailed(source: source)))
            return []
        }
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
            context.diagnose(
                Diagnostic(node: Syntax(node), message: TableDiagnostic.attributeOnNonProperty(attribute: name)))
        }
        return []
    }
}

/// Writes the extension's source text: the conformance's members through the shared emitter
/// (`SlateCodeModel`, which `slate generate` uses too), plus the self-managing table's settings.
struct TableCodeGenerator {
    let model: TableModel
    let requestedConformances: Set<String>

    private var access: String { model.accessModifier }

    /// The model in the shared emitter's terms.
    var conformance: TableConformance {
        if let options = model.fullTextOptions { return fullTextConformance(options: options) }
        let keyColumns = model.primaryKeyColumns
        var columns: [TableConformance.Column] = []
        var foreignKeys: [TableConformance.ForeignKey] = []
        for column in model.columns {
            if let group = column.groupType {
                columns.append(
                    .group(
                        TableConformance.Property(
                            name: column.accessName, baseType: group, isOptional: false, isMutable: column.isMutable)))
                continue
            }
            let keyPosition = keyColumns.firstIndex { $0.columnName == column.columnName }.map { $0 + 1 }
            // A lone INTEGER key is the rowid: `nil` asks SQLite for one, and the column is never NULL
            // without saying so. Other key columns are NOT NULL even when their property is optional.
            let isRowIDAlias =
                keyColumns.count == 1 && keyPosition != nil && !model.isWithoutRowID
                && column.sqlType.expression == "\"INTEGER\""
            let isNotNull = !isRowIDAlias && (keyPosition != nil || !column.info.isOptional || column.isNilForDefault)
            let storage: TableConformance.Storage
            switch column.storage {
            case .plain: storage = .plain
            case .json: storage = .json
            case .date(let strategy): storage = .date(strategy: strategy)
            case .uuid(let uuidStorage): storage = .uuid(storage: uuidStorage)
            }
            columns.append(
                TableConformance.Column(
                    name: column.columnName, typeExpression: column.sqlType.expression, isNotNull: isNotNull,
                    primaryKeyPosition: keyPosition, isAutoIncrement: column.isAutoIncrement, isUnique: column.isUnique,
                    defaultSQL: column.defaultSQL, collation: column.collation,
                    property: checked(
                        TableConformance.Property(
                            name: column.accessName, baseType: column.info.baseType, isOptional: column.info.isOptional,
                            storage: storage,
                            isMutable: column.isMutable, isNilForDefault: column.isNilForDefault),
                        column)))
            if let reference = column.references {
                foreignKeys.append(
                    TableConformance.ForeignKey(
                        columns: [column.columnName], referencedTable: reference.table,
                        referencedColumns: reference.column.map { [$0] } ?? [], onDelete: reference.onDelete,
                        onUpdate: reference.onUpdate))
            }
        }
        let indexes = model.columns.filter(\.isIndexed).map { column in
            TableConformance.Index(name: model.tableName + "_" + column.columnName, columns: [column.columnName])
        }
        var conformance = TableConformance(
            typeName: model.typeName, tableName: model.tableName, access: access, qualifier: "Slate.", columns: columns,
            foreignKeys: foreignKeys, indexes: indexes, isWithoutRowID: model.isWithoutRowID)
        conformance.decodingShape = model.decodingShape
        conformance.associations = model.associations
        return conformance
    }

    /// `property`, checked through a typealias when its type is one the macro does not know (a
    /// user type it cannot see): a type that is not `SQLValueConvertible` is then one compiler
    /// error, at the alias, instead of one per use in the expansion.
    func checked(_ property: TableConformance.Property, _ column: ColumnModel) -> TableConformance.Property {
        guard column.storage == .plain, column.info.knownName == nil else { return property }
        var property = property
        property.checkedTypeAlias = TableConformance.checkedTypeNamespace + "." + column.accessName
        return property
    }

    /// An FTS5 table: its columns hold text, without types, constraints or key; the module's
    /// arguments list them, then `options`.
    func fullTextConformance(options: String) -> TableConformance {
        let columns = model.columns.map { column in
            TableConformance.Column(
                name: column.columnName, typeExpression: "\"\"",
                property: TableConformance.Property(
                    name: column.accessName, baseType: column.info.baseType, isOptional: column.info.isOptional,
                    isMutable: column.isMutable))
        }
        let names = model.columns.map { Self.fullTextColumnName($0.columnName) }
        let trimmed = String(
            String(options.drop(while: \.isWhitespace).reversed()).drop(while: \.isWhitespace).reversed())
        let arguments = (names + (trimmed.isEmpty ? [] : [trimmed])).joined(separator: ", ")
        var conformance = TableConformance(
            typeName: model.typeName, tableName: model.tableName, kind: .virtual(module: "fts5", arguments: arguments),
            access: access, qualifier: "Slate.", columns: columns)
        conformance.decodingShape = model.decodingShape
        return conformance
    }

    /// A column name in FTS5's arguments: bare when it is a plain identifier, else double-quoted.
    static func fullTextColumnName(_ name: String) -> String {
        let isPlain =
            name.first.map { $0.isLetter || $0 == "_" } == true
            && name.allSatisfy { ($0.isASCII && ($0.isLetter || $0.isNumber)) || $0 == "_" }
        return isPlain
            ? name
            : "\"" + name.split(separator: "\"", omittingEmptySubsequences: false).joined(separator: "\"\"") + "\""
    }

    func extensionSource() -> String {
        let conformance = self.conformance
        // Every protocol is spelled out, the inherited `Table` included: the compiler does not
        // infer a conformance implied by one a macro adds.
        var conformances: [String] = []
        if requestedConformances.contains("Table") { conformances.append("Slate.Table") }
        if conformance.isKeyed && requestedConformances.contains("PrimaryKeyedTable") {
            conformances.append("Slate.PrimaryKeyedTable")
        }
        // A full-text table is created with `createTable(for:)`; it does not migrate itself.
        if requestedConformances.contains("SelfManagingTable") && model.fullTextOptions == nil {
            conformances.append("Slate.SelfManagingTable")
        }

        // `nonisolated`: in a module whose declarations are main-actor isolated by default (Swift
        // 6.2's `.defaultIsolation(MainActor.self)`), the conformance and its members would be
        // too, and a table could not be read or written off the main actor (a queue's or pool's
        // thread). Elsewhere the keyword changes nothing.
        var text =
            "nonisolated extension \(model.typeName)"
            + (conformances.isEmpty ? "" : ": " + conformances.joined(separator: ", ")) + " {\n"
        text += conformance.membersText()
        let renamed = model.columns.filter { $0.renamedFrom != nil }
        if !renamed.isEmpty {
            let entries = renamed.map {
                "\(SwiftLiteral.string($0.columnName)): \(SwiftLiteral.string($0.renamedFrom ?? ""))"
            }
            text +=
                "\n    \(access)static let renamedColumns: [String: String] = [\(entries.joined(separator: ", "))]\n"
        }
        if let databaseFile = model.databaseFile {
            text += "\n    \(access)static let databaseFile: String? = \(SwiftLiteral.string(databaseFile))\n"
        }
        return text + "}"
    }
}

/// `@ColumnGroup`: conforms a struct to `ColumnGroup`, so that a `@Table` struct stores it as
/// several of its own columns (`@Grouped var address: Address`). Its properties follow `@Table`'s
/// column rules; it has no key.
public struct ColumnGroupMacro: ExtensionMacro {
    public static func expansion(
        of node: AttributeSyntax,
        attachedTo declaration: some DeclGroupSyntax,
        providingExtensionsOf type: some TypeSyntaxProtocol,
        conformingTo protocols: [TypeSyntax],
        in context: some MacroExpansionContext
    ) throws -> [ExtensionDeclSyntax] {
        var parser = TableParser(context: context)
        guard let model = parser.parse(node: node, declaration: declaration, type: type, isGroup: true) else {
            return []
        }
        let generator = TableCodeGenerator(model: model, requestedConformances: [])
        let conformance = generator.conformance
        let source =
            "nonisolated extension \(model.typeName): Slate.ColumnGroup {\n" + conformance.groupMembersText() + "}"
        guard let extensionDecl = DeclSyntax(stringLiteral: source).as(ExtensionDeclSyntax.self),
            !extensionDecl.hasError
        else {
            context.diagnose(Diagnostic(node: Syntax(node), message: TableDiagnostic.expansionFailed(source: source)))
            return []
        }
        return [extensionDecl]
    }
}
