import SlateCodeModel
import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxBuilder
import SwiftSyntaxMacros

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
}
