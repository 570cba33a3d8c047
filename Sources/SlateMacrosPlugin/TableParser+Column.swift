import SlateCodeModel
import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxBuilder
import SwiftSyntaxMacros

// One column of a `@Table` struct: its attributes, storage and reference.

extension TableParser {
    // MARK: One column

    mutating func parseColumn(
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
