import SlateCodeModel
import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxBuilder
import SwiftSyntaxMacros

/// One column of a `@Table` struct, as read from a stored property. About 20 stored properties, on
/// purpose: each is one fact of the property or its attributes that the expansion writes.
struct ColumnModel {
    /// The property name, without backticks.
    var propertyName: String
    /// The property name as code refers to it (backticked when it is a keyword).
    var accessName: String
    /// The column name.
    var columnName: String
    /// The property's type, as written.
    var typeText: String
    var info: TypeInfo
    var storage: ColumnStorage
    var isPrimaryKey = false
    var isAutoIncrement = false
    var isUnique = false
    var isIndexed = false
    var defaultSQL: String?
    /// `@Column(default: …, notNull: true)` on an optional property: the column is `NOT NULL`, and
    /// `nil` lets its default apply.
    var isNilForDefault = false
    var collation: String?
    /// The foreign key declared with `@ForeignKey`.
    var references: ReferenceModel?
    var renamedFrom: String?
    var sqlTypeOverride: String?
    /// Whether the property is a `var` (so `didInsert(rowID:)` can set it).
    var isMutable: Bool
    /// `@Grouped`: the property's `ColumnGroup` type, stored as several columns.
    var groupType: String?

    var sqlType: SQLTypeSpec {
        if let sqlTypeOverride { return .literal(sqlTypeOverride) }
        if case .date(let strategy) = storage { return .literal(TypeAnalysis.dateSQLType(strategy: strategy)) }
        return info.sqlType
    }
}

/// A `@ForeignKey` reference: Swift expressions for the table and actions.
struct ReferenceModel {
    var table: String
    /// The referenced record type, when given as `Artist.self`.
    var typeName: String?
    var column: String?
    var onDelete: String?
    var onUpdate: String?
}

/// Everything `@Table` generates code from.
struct TableModel {
    var typeName: String
    var tableName: String
    var databaseFile: String?
    var isWithoutRowID = false
    /// `@Table(fullTextSearch: "…")`: an FTS5 table, with these options after its columns.
    var fullTextOptions: String?
    var accessModifier: String
    var columns: [ColumnModel]
    /// How `init(row:)` builds the record (see `TableConformance.DecodingShape`): through the
    /// memberwise initializer Swift synthesizes when the struct surely has it, taking the columns'
    /// properties in order with every other stored property defaulted; else every read before the
    /// first assignment when no stored property surely has an initial value; else one assignment
    /// per read.
    var decodingShape = TableConformance.DecodingShape.assignments
    /// The associations: declared in `@Table(associations:)`, and one per `@ForeignKey(Type.self)`
    /// (`AssociationParsing.swift`).
    var associations: [TableConformance.Association] = []

    var primaryKeyColumns: [ColumnModel] { columns.filter(\.isPrimaryKey) }
}

/// Reads a `@Table` struct into a ``TableModel``, reporting every problem it finds.
struct TableParser {
    let context: any MacroExpansionContext
    private(set) var hasErrors = false
    /// The enums declared inside the struct, by name: the only property types whose conformances
    /// the macro can see (`TableParser+Storage.swift`).
    var nestedEnums: [String: EnumDeclSyntax] = [:]

    init(context: some MacroExpansionContext) {
        self.context = context
    }

    mutating func error(
        _ message: TableDiagnostic, at node: some SyntaxProtocol, notes: [Note] = [], fixIts: [FixIt] = []
    ) {
        hasErrors = true
        context.diagnose(Diagnostic(node: Syntax(node), message: message, notes: notes, fixIts: fixIts))
    }

    // MARK: The type

    mutating func parse(
        node: AttributeSyntax, declaration: some DeclGroupSyntax, type: some TypeSyntaxProtocol, isGroup: Bool = false
    ) -> TableModel? {
        guard let structDecl = declaration.as(StructDeclSyntax.self) else {
            diagnoseNotAStruct(declaration)
            return nil
        }
        if structDecl.genericParameterClause != nil {
            error(.genericType, at: structDecl.name)
            return nil
        }
        let typeName = type.trimmedDescription
        var model = TableModel(
            typeName: typeName, tableName: structDecl.name.identifier?.name ?? structDecl.name.text,
            accessModifier: Self.accessModifier(structDecl.modifiers), columns: [])
        if let name = node.argument(nil) {
            if let value = name.stringValue {
                model.tableName = value
            } else if !name.isNilLiteral {
                error(.invalidArgument(attribute: "Table", argument: "name", expected: "a string literal"), at: name)
            }
        }
        if let file = node.argument("databaseFile") {
            if let value = file.stringValue {
                model.databaseFile = value
            } else if !file.isNilLiteral {
                error(
                    .invalidArgument(attribute: "Table", argument: "databaseFile", expected: "a string literal"),
                    at: file)
            }
        }
        if let withoutRowID = node.argument("withoutRowID") {
            if let value = withoutRowID.boolValue {
                model.isWithoutRowID = value
            } else {
                error(
                    .invalidArgument(attribute: "Table", argument: "withoutRowID", expected: "true or false"),
                    at: withoutRowID)
            }
        }

        if let options = node.argument("fullTextSearch") {
            if let value = options.stringValue {
                model.fullTextOptions = value
            } else if !options.isNilLiteral {
                error(
                    .invalidArgument(attribute: "Table", argument: "fullTextSearch", expected: "a string literal"),
                    at: options)
            }
        }

        for member in structDecl.memberBlock.members {
            if let nested = member.decl.as(EnumDeclSyntax.self) { nestedEnums[nested.name.text] = nested }
        }
        var firstUse: [String: (property: String, node: Syntax)] = [:]
        for member in structDecl.memberBlock.members {
            guard let variable = member.decl.as(VariableDeclSyntax.self) else { continue }
            for column in parseVariable(variable) {
                let key = column.columnName.lowercased()
                if let first = firstUse[key] {
                    error(
                        .duplicateColumn(
                            name: column.columnName, property: column.propertyName, firstProperty: first.property),
                        at: variable,
                        notes: [
                            Note(
                                node: first.node,
                                message: TableNote(
                                    message: "column \"\(column.columnName)\" is first used by '\(first.property)' here"
                                ))
                        ])
                    continue
                }
                firstUse[key] = (column.propertyName, Syntax(variable))
                model.columns.append(column)
            }
        }
        if model.columns.isEmpty && !hasErrors {
            error(.noStoredProperties(typeName: structDecl.name.text), at: structDecl.name)
        }
        model.associations = parseAssociations(node, columns: model.columns)
        if hasErrors { return nil }
        if Self.hasMemberwiseInitializer(structDecl, columns: model.columns) {
            model.decodingShape = .throughInitializer
        } else if Self.hasNoInitialValues(structDecl) {
            model.decodingShape = .readsThenAssignments
        }

        // A full-text table has no key, and holds text.
        if model.fullTextOptions != nil {
            if model.columns.contains(where: { $0.isPrimaryKey || $0.info.baseType != "String" || $0.storage != .plain }
            ) {
                error(
                    .invalidArgument(
                        attribute: "Table", argument: "fullTextSearch",
                        expected: "used on a struct of String properties without a key"),
                    at: structDecl.name)
                return nil
            }
            return model
        }

        // A column group has no key, and no group of its own.
        if isGroup {
            if let nested = model.columns.first(where: {
                $0.groupType != nil || $0.isPrimaryKey || $0.references != nil || $0.isIndexed
            }) {
                error(
                    .invalidArgument(
                        attribute: "ColumnGroup", argument: nested.propertyName,
                        expected: "a plain column: no key, group, foreign key or index"),
                    at: structDecl.name)
                return nil
            }
            return model
        }

        // The primary key: the @PrimaryKey properties, else a property called `id`.
        if !model.columns.contains(where: \.isPrimaryKey),
            let index = model.columns.firstIndex(where: { $0.propertyName == "id" && $0.groupType == nil })
        {
            model.columns[index].isPrimaryKey = true
        }
        return model
    }

    private mutating func diagnoseNotAStruct(_ declaration: some DeclGroupSyntax) {
        if let classDecl = declaration.as(ClassDeclSyntax.self) {
            let keyword = classDecl.classKeyword
            error(
                .notAStruct(kind: "a class"), at: keyword,
                fixIts: [
                    FixIt(
                        message: TableFixIt(message: "make it a struct"),
                        changes: [
                            .replace(
                                oldNode: Syntax(keyword), newNode: Syntax(keyword.with(\.tokenKind, .keyword(.struct))))
                        ])
                ])
        } else if let actorDecl = declaration.as(ActorDeclSyntax.self) {
            let keyword = actorDecl.actorKeyword
            error(
                .notAStruct(kind: "an actor"), at: keyword,
                fixIts: [
                    FixIt(
                        message: TableFixIt(message: "make it a struct"),
                        changes: [
                            .replace(
                                oldNode: Syntax(keyword), newNode: Syntax(keyword.with(\.tokenKind, .keyword(.struct))))
                        ])
                ])
        } else if let enumDecl = declaration.as(EnumDeclSyntax.self) {
            error(.notAStruct(kind: "an enum"), at: enumDecl.enumKeyword)
        } else if let protocolDecl = declaration.as(ProtocolDeclSyntax.self) {
            error(.notAStruct(kind: "a protocol"), at: protocolDecl.protocolKeyword)
        } else {
            error(.notAStruct(kind: "this declaration"), at: declaration)
        }
    }

    static func accessModifier(_ modifiers: DeclModifierListSyntax) -> String {
        for modifier in modifiers {
            switch modifier.name.tokenKind {
            case .keyword(.public), .keyword(.open): return "public "
            case .keyword(.package): return "package "
            default: continue
            }
        }
        return ""
    }

    // MARK: Properties

    private mutating func parseVariable(_ variable: VariableDeclSyntax) -> [ColumnModel] {
        let isStatic = variable.modifiers.contains {
            [.keyword(.static), .keyword(.class)].contains($0.name.tokenKind)
        }
        var attributes: [PropertyAttribute: AttributeSyntax] = [:]
        for element in variable.attributes {
            guard let attribute = element.as(AttributeSyntax.self), let kind = PropertyAttribute(attribute) else {
                continue
            }
            attributes[kind] = attribute
        }
        if isStatic {
            if let (_, attribute) = attributes.first {
                let name = PropertyAttribute(attribute)?.rawValue ?? "Column"
                error(.attributeOnNonProperty(attribute: name), at: attribute)
            }
            return []
        }
        let isIgnored = attributes[.ignored] != nil || attributes[.transient] != nil
        let isLet = variable.bindingSpecifier.tokenKind == .keyword(.let)
        let isLazy = variable.modifiers.contains { $0.name.tokenKind == .keyword(.lazy) }

        // `var a, b: Int` annotates only the last binding: carry the type backwards.
        let bindings = Array(variable.bindings)
        var types: [TypeSyntax?] = Array(repeating: nil, count: bindings.count)
        var carried: TypeSyntax?
        for index in bindings.indices.reversed() {
            if let type = bindings[index].typeAnnotation?.type {
                carried = type
            } else if bindings[index].initializer != nil {
                carried = nil
            }
            types[index] = bindings[index].typeAnnotation?.type ?? (bindings[index].initializer == nil ? carried : nil)
        }

        var columns: [ColumnModel] = []
        for (index, binding) in bindings.enumerated() where Self.isStored(binding) {
            guard let pattern = binding.pattern.as(IdentifierPatternSyntax.self) else {
                if !isIgnored { error(.destructuringPattern, at: binding.pattern) }
                continue
            }
            let accessName = pattern.identifier.text
            let propertyName = pattern.identifier.identifier?.name ?? accessName
            if isIgnored {
                if let conflicting = attributes.keys.first(where: { ![.ignored, .transient].contains($0) }) {
                    let ignoredName = attributes[.ignored] != nil ? "Ignored" : "Transient"
                    error(
                        .conflictingAttributes(
                            property: propertyName, first: ignoredName, second: conflicting.rawValue), at: variable)
                    continue
                }
                let hasImplicitNil =
                    !isLet && (types[index].map { TypeAnalysis.analyze($0, storage: .plain).isOptional } ?? false)
                if binding.initializer == nil && !hasImplicitNil {
                    error(.ignoredWithoutDefault(property: propertyName), at: binding)
                }
                continue
            }
            if isLazy {
                error(
                    .lazyProperty(property: propertyName), at: variable,
                    fixIts: [Self.addAttributeFixIt(variable, attribute: "@Ignored", message: "mark it @Ignored")])
                continue
            }
            if isLet, binding.initializer != nil {
                let keyword = variable.bindingSpecifier
                error(
                    .letWithInitialValue(property: propertyName), at: keyword,
                    fixIts: [
                        FixIt(
                            message: TableFixIt(message: "make it 'var'"),
                            changes: [
                                .replace(
                                    oldNode: Syntax(keyword), newNode: Syntax(keyword.with(\.tokenKind, .keyword(.var)))
                                )
                            ])
                    ])
                continue
            }
            guard let type = types[index] else {
                var fixIts: [FixIt] = []
                if let typeName = binding.initializer?.value.literalTypeName {
                    let annotated =
                        binding
                        .with(\.pattern, PatternSyntax(pattern.with(\.trailingTrivia, [])))
                        .with(
                            \.typeAnnotation,
                            TypeAnnotationSyntax(
                                colon: .colonToken(trailingTrivia: .space),
                                type: TypeSyntax(
                                    IdentifierTypeSyntax(
                                        name: .identifier(typeName, trailingTrivia: pattern.trailingTrivia)))))
                    fixIts.append(
                        FixIt(
                            message: TableFixIt(message: "add ': \(typeName)'"),
                            changes: [.replace(oldNode: Syntax(binding), newNode: Syntax(annotated))]))
                }
                error(.missingTypeAnnotation(property: propertyName), at: pattern, fixIts: fixIts)
                continue
            }
            if attributes[.grouped] != nil {
                if let other = attributes.keys.first(where: { $0 != .grouped }) {
                    error(
                        .conflictingAttributes(property: propertyName, first: "Grouped", second: other.rawValue),
                        at: variable)
                    continue
                }
                let info = TypeAnalysis.analyze(type, storage: .plain)
                if info.isOptional {
                    error(
                        .invalidArgument(
                            attribute: "Grouped", argument: "type", expected: "a non-optional ColumnGroup type"),
                        at: type)
                    continue
                }
                var column = ColumnModel(
                    propertyName: propertyName, accessName: accessName, columnName: propertyName,
                    typeText: type.trimmedDescription,
                    info: info, storage: .plain, isMutable: !isLet)
                column.groupType = type.trimmedDescription
                columns.append(column)
                continue
            }
            if let column = parseColumn(
                variable: variable, binding: binding, type: type, accessName: accessName, propertyName: propertyName,
                attributes: attributes, isMutable: !isLet)
            {
                columns.append(column)
            }
        }
        return columns
    }

    /// Whether Swift synthesizes the memberwise initializer `init(row:)` can call: the body
    /// declares no initializer (nor anything the macro cannot see through: `#if`, property wrappers
    /// or other attributes on the struct or its stored properties, `lazy`), no stored property is
    /// private (which would make the initializer private too), and every column's name can be an
    /// argument label. Any doubt answers `false`: `init(row:)` then assigns field by field, which
    /// is correct, only slower for large records.
    static func hasMemberwiseInitializer(_ structDecl: StructDeclSyntax, columns: [ColumnModel]) -> Bool {
        let slateAttributes: Set<String> = ["Table", "Slate.Table", "ColumnGroup", "Slate.ColumnGroup"]
        for element in structDecl.attributes {
            guard let attribute = element.as(AttributeSyntax.self),
                slateAttributes.contains(attribute.attributeName.trimmedDescription)
            else { return false }
        }
        for member in structDecl.memberBlock.members {
            if member.decl.is(InitializerDeclSyntax.self) || member.decl.is(IfConfigDeclSyntax.self)
                || member.decl.is(MacroExpansionDeclSyntax.self)
            {
                return false
            }
            guard let variable = member.decl.as(VariableDeclSyntax.self) else { continue }
            if variable.modifiers.contains(where: { [.keyword(.static), .keyword(.class)].contains($0.name.tokenKind) })
            {
                continue
            }
            guard variable.bindings.contains(where: isStored) else { continue }
            for modifier in variable.modifiers {
                switch modifier.name.tokenKind {
                case .keyword(.lazy), .keyword(.private), .keyword(.fileprivate): return false
                default: continue
                }
            }
            for element in variable.attributes {
                guard let attribute = element.as(AttributeSyntax.self), PropertyAttribute(attribute) != nil else {
                    return false
                }
            }
        }
        return !columns.contains { ["inout", "var", "let"].contains($0.propertyName) }
    }

    /// Whether no stored property of the struct has an initial value: none is written with `= …`,
    /// and no `var` is spelled `T?` or `T!` (which starts as `nil`). Anything the macro cannot see
    /// through (`#if`, macros, attributes other than Slate's on the struct or a stored property,
    /// `lazy`) answers `false`.
    static func hasNoInitialValues(_ structDecl: StructDeclSyntax) -> Bool {
        let slateAttributes: Set<String> = ["Table", "Slate.Table", "ColumnGroup", "Slate.ColumnGroup"]
        for element in structDecl.attributes {
            guard let attribute = element.as(AttributeSyntax.self),
                slateAttributes.contains(attribute.attributeName.trimmedDescription)
            else { return false }
        }
        for member in structDecl.memberBlock.members {
            if member.decl.is(IfConfigDeclSyntax.self) || member.decl.is(MacroExpansionDeclSyntax.self) { return false }
            guard let variable = member.decl.as(VariableDeclSyntax.self) else { continue }
            if variable.modifiers.contains(where: { [.keyword(.static), .keyword(.class)].contains($0.name.tokenKind) })
            {
                continue
            }
            let stored = variable.bindings.filter(isStored)
            guard !stored.isEmpty else { continue }
            if variable.modifiers.contains(where: { $0.name.tokenKind == .keyword(.lazy) }) { return false }
            for element in variable.attributes {
                guard let attribute = element.as(AttributeSyntax.self), PropertyAttribute(attribute) != nil else {
                    return false
                }
            }
            let isVar = variable.bindingSpecifier.tokenKind == .keyword(.var)
            for binding in stored {
                if binding.initializer != nil { return false }
                // `var a, b: T?` annotates only `b`; any sugared optional in the declaration answers.
                if isVar,
                    variable.bindings.contains(where: { binding in
                        guard let type = binding.typeAnnotation?.type else { return false }
                        return type.is(OptionalTypeSyntax.self) || type.is(ImplicitlyUnwrappedOptionalTypeSyntax.self)
                    })
                {
                    return false
                }
            }
        }
        return true
    }

    static func isStored(_ binding: PatternBindingSyntax) -> Bool {
        guard let accessorBlock = binding.accessorBlock else { return true }
        switch accessorBlock.accessors {
        case .getter: return false
        case .accessors(let accessors):
            return accessors.allSatisfy {
                [.keyword(.willSet), .keyword(.didSet)].contains($0.accessorSpecifier.tokenKind)
            }
        }
    }

    static func addAttributeFixIt(_ variable: VariableDeclSyntax, attribute: String, message: String) -> FixIt {
        var fixed = variable
        let leading = variable.leadingTrivia
        fixed.leadingTrivia = []
        let newAttribute = AttributeSyntax(stringLiteral: attribute).with(\.leadingTrivia, leading).with(
            \.trailingTrivia, .space)
        fixed.attributes.insert(.attribute(newAttribute), at: fixed.attributes.startIndex)
        return FixIt(
            message: TableFixIt(message: message),
            changes: [.replace(oldNode: Syntax(variable), newNode: Syntax(fixed))])
    }

    // MARK: One column

    private mutating func parseColumn(
        variable: VariableDeclSyntax, binding: PatternBindingSyntax, type: TypeSyntax, accessName: String,
        propertyName: String, attributes: [PropertyAttribute: AttributeSyntax], isMutable: Bool
    ) -> ColumnModel? {
        var storage = ColumnStorage.plain
        var columnName = propertyName
        var sqlTypeOverride: String?
        var defaultSQL: String?
        var collation: String?
        var renamedFrom: String?
        var isNotNull = false
        var failed = false

        if let attribute = attributes[.column] {
            for argument in attribute.argumentList {
                let label = argument.label?.text
                let expression = argument.expression
                switch label {
                case nil:
                    if let value = expression.stringValue {
                        columnName = value
                    } else if !expression.isNilLiteral {
                        error(
                            .invalidArgument(attribute: "Column", argument: "name", expected: "a string literal"),
                            at: expression)
                        failed = true
                    }
                case "notNull":
                    if let value = expression.boolValue {
                        isNotNull = value
                    } else {
                        error(
                            .invalidArgument(attribute: "Column", argument: "notNull", expected: "true or false"),
                            at: expression)
                        failed = true
                    }
                case "storage":
                    if let parsed = Self.parseStorage(expression) {
                        storage = parsed
                    } else if !expression.isNilLiteral {
                        error(
                            .invalidArgument(
                                attribute: "Column", argument: "storage", expected: "'.json', '.date(…)' or '.uuid(…)'"),
                            at: expression)
                        failed = true
                    }
                default:
                    guard let label else { continue }
                    let value = expression.stringValue
                    if value == nil && !expression.isNilLiteral {
                        error(
                            .invalidArgument(attribute: "Column", argument: label, expected: "a string literal"),
                            at: expression)
                        failed = true
                        continue
                    }
                    switch label {
                    case "type": sqlTypeOverride = value
                    case "default": defaultSQL = value
                    case "collate": collation = value
                    case "renamedFrom": renamedFrom = value
                    default: break
                    }
                }
            }
        }
        if failed { return nil }

        let info = TypeAnalysis.analyze(type, storage: storage)
        switch info.problem {
        case .implicitlyUnwrapped:
            if let iuo = type.as(ImplicitlyUnwrappedOptionalTypeSyntax.self) {
                let optional = OptionalTypeSyntax(
                    wrappedType: iuo.wrappedType,
                    questionMark: .postfixQuestionMarkToken(trailingTrivia: iuo.exclamationMark.trailingTrivia))
                error(
                    .implicitlyUnwrapped(property: propertyName), at: type,
                    fixIts: [
                        FixIt(
                            message: TableFixIt(message: "make it optional"),
                            changes: [.replace(oldNode: Syntax(iuo), newNode: Syntax(optional))])
                    ])
            }
            return nil
        case .unsupported(let reason):
            error(.unsupportedType(property: propertyName, type: type.trimmedDescription, reason: reason), at: type)
            return nil
        case .collection:
            error(
                .collectionNeedsJSON(property: propertyName, type: type.trimmedDescription), at: type,
                fixIts: [
                    Self.addAttributeFixIt(variable, attribute: "@Column(storage: .json)", message: "store it as JSON")
                ])
            return nil
        case nil:
            break
        }
        if storage == .plain, info.knownName == nil, let nested = nestedEnum(named: info.baseType),
            !Self.declaresStorage(nested)
        {
            diagnoseUnstorableEnum(nested, property: propertyName, variable: variable, type: type)
            return nil
        }
        switch storage {
        case .date where info.knownName != "Date":
            error(
                .invalidArgument(
                    attribute: "Column", argument: "storage", expected: "'.date(…)' only on a Date property"), at: type)
            return nil
        case .uuid where info.knownName != "UUID":
            error(
                .invalidArgument(
                    attribute: "Column", argument: "storage", expected: "'.uuid(…)' only on a UUID property"), at: type)
            return nil
        default:
            break
        }

        if defaultSQL == nil, let initializer = binding.initializer?.value, !initializer.isNilLiteral {
            defaultSQL = initializer.sqlLiteral
        }
        if collation == nil, info.knownName == "UUID", Self.isUUIDText(storage) {
            // UUID text matches in any letter case, and indexes still serve lookups (UUIDStorage.text).
            collation = "NOCASE"
        }
        var column = ColumnModel(
            propertyName: propertyName, accessName: accessName, columnName: columnName,
            typeText: type.trimmedDescription,
            info: info, storage: storage, defaultSQL: defaultSQL, collation: collation, renamedFrom: renamedFrom,
            sqlTypeOverride: sqlTypeOverride, isMutable: isMutable)
        if isNotNull && info.isOptional {
            // `nil` can only mean "the default": a NOT NULL column without one would refuse it.
            guard defaultSQL != nil else {
                error(
                    .invalidArgument(
                        attribute: "Column", argument: "notNull",
                        expected: "paired with a 'default:' when the property is optional"), at: type)
                return nil
            }
            column.isNilForDefault = true
        }

        if let primaryKey = attributes[.primaryKey] {
            column.isPrimaryKey = true
            if let autoIncrement = primaryKey.argument("autoIncrement") {
                if let value = autoIncrement.boolValue {
                    column.isAutoIncrement = value
                } else {
                    error(
                        .invalidArgument(attribute: "PrimaryKey", argument: "autoIncrement", expected: "true or false"),
                        at: autoIncrement)
                    return nil
                }
            }
        }
        column.isUnique = attributes[.unique] != nil
        column.isIndexed = attributes[.indexed] != nil
        if let foreignKey = attributes[.foreignKey] {
            guard let reference = parseReference(foreignKey) else { return nil }
            column.references = reference
        }
        return column
    }

    static func parseStorage(_ expression: ExprSyntax) -> ColumnStorage? {
        if let member = expression.as(MemberAccessExprSyntax.self), member.declName.baseName.text == "json" {
            return .json
        }
        guard let call = expression.as(FunctionCallExprSyntax.self),
            let member = call.calledExpression.as(MemberAccessExprSyntax.self),
            call.arguments.count == 1, let argument = call.arguments.first?.expression
        else { return nil }
        switch member.declName.baseName.text {
        case "date": return .date(strategy: argument.trimmedDescription)
        case "uuid": return .uuid(storage: argument.trimmedDescription)
        default: return nil
        }
    }

    private mutating func parseReference(_ attribute: AttributeSyntax) -> ReferenceModel? {
        var table: String?
        var reference = ReferenceModel(table: "")
        for argument in attribute.argumentList {
            let expression = argument.expression
            switch argument.label?.text {
            case nil:
                if let member = expression.as(MemberAccessExprSyntax.self), member.declName.baseName.text == "self",
                    let base = member.base
                {
                    table = "\(base.trimmedDescription).tableName"
                    reference.typeName = base.trimmedDescription
                } else {
                    error(
                        .invalidArgument(
                            attribute: "ForeignKey", argument: "table", expected: "a table type such as 'Artist.self'"),
                        at: expression)
                    return nil
                }
            case "table":
                guard let value = expression.stringValue else {
                    error(
                        .invalidArgument(attribute: "ForeignKey", argument: "table", expected: "a string literal"),
                        at: expression)
                    return nil
                }
                table = SwiftLiteral.string(value)
            case "column":
                guard let value = expression.stringValue else {
                    error(
                        .invalidArgument(attribute: "ForeignKey", argument: "column", expected: "a string literal"),
                        at: expression)
                    return nil
                }
                reference.column = value
            case "onDelete":
                reference.onDelete = expression.trimmedDescription
            case "onUpdate":
                reference.onUpdate = expression.trimmedDescription
            default:
                break
            }
        }
        guard let table else {
            error(.invalidArgument(attribute: "ForeignKey", argument: "table", expected: "given"), at: attribute)
            return nil
        }
        reference.table = table
        return reference
    }
}
