import SlateCodeModel
import SwiftDiagnostics
import SwiftSyntax

// `@Table`'s associations: those declared in `@Table(associations: [...])`, and a `BelongsTo` per
// `@ForeignKey(Type.self)` property. They become members of the table's `Columns`, so a name must
// differ from every column property's.

extension TableParser {
    /// The associations of the table whose attribute is `node` and whose columns are `columns`.
    mutating func parseAssociations(_ node: AttributeSyntax, columns: [ColumnModel]) -> [TableConformance.Association] {
        var taken = Set(columns.map(\.propertyName)).union(["init", "self", "Type", "rowid"])
        var associations: [TableConformance.Association] = []
        if let list = node.argument("associations") {
            if let array = list.as(ArrayExprSyntax.self) {
                for element in array.elements {
                    guard let association = parseAssociation(element.expression) else { continue }
                    guard taken.insert(association.name).inserted else {
                        error(
                            .invalidArgument(
                                attribute: "Table", argument: "associations",
                                expected: "a name that no column or other association uses ('\(association.name)')"),
                            at: element.expression)
                        continue
                    }
                    associations.append(association)
                }
            } else {
                error(
                    .invalidArgument(attribute: "Table", argument: "associations", expected: "an array literal"),
                    at: list)
            }
        }
        // A BelongsTo per @ForeignKey(Type.self), unless one to that type was declared.
        let declared = Set(associations.filter { if case .belongsTo = $0.kind { true } else { false } }.map(\.target))
        var referenceCounts: [String: Int] = [:]
        for column in columns { if let type = column.references?.typeName { referenceCounts[type, default: 0] += 1 } }
        for column in columns {
            guard let type = column.references?.typeName, !declared.contains(type) else { continue }
            var name = Self.belongsToStem(column.propertyName)
            if taken.contains(name) { name += type.split(separator: ".").last.map(String.init) ?? "Record" }
            var unique = name
            var number = 2
            while taken.contains(unique) {
                unique = "\(name)\(number)"
                number += 1
            }
            taken.insert(unique)
            associations.append(
                TableConformance.Association(
                    name: unique, kind: .belongsTo, target: type,
                    foreignKey: (referenceCounts[type] ?? 0) > 1 ? [column.columnName] : nil,
                    documentation: "The `\(type)` record that `\(column.propertyName)` references."))
        }
        return associations
    }

    /// `.hasMany("albums", Album.self, …)` and its siblings.
    private mutating func parseAssociation(_ expression: ExprSyntax) -> TableConformance.Association? {
        let expected =
            "'.hasMany(\"name\", Type.self)', '.hasOne(…)', '.belongsTo(…)' or '.hasMany(…, through: Type.self)'"
        guard let call = expression.as(FunctionCallExprSyntax.self),
            let member = call.calledExpression.as(MemberAccessExprSyntax.self),
            let name = call.arguments.first?.expression.stringValue, call.arguments.first?.label == nil,
            call.arguments.count >= 2,
            let target = Self.typeName(call.arguments[call.arguments.index(at: 1)].expression)
        else {
            error(.invalidArgument(attribute: "Table", argument: "associations", expected: expected), at: expression)
            return nil
        }
        var foreignKey: [String]?
        var originKey: [String]?
        var targetKey: [String]?
        var pivot: String?
        for argument in call.arguments.dropFirst(2) {
            let label = argument.label?.text
            if label == "through" {
                pivot = Self.typeName(argument.expression)
                if pivot == nil {
                    error(
                        .invalidArgument(
                            attribute: "Table", argument: "through", expected: "a table type such as 'Link.self'"),
                        at: argument.expression)
                    return nil
                }
                continue
            }
            guard let columns = Self.stringArray(argument.expression) else {
                error(
                    .invalidArgument(
                        attribute: "Table", argument: label ?? "associations", expected: "an array of string literals"),
                    at: argument.expression)
                return nil
            }
            switch label {
            case "foreignKey": foreignKey = columns
            case "originKey": originKey = columns
            case "targetKey": targetKey = columns
            default:
                error(.invalidArgument(attribute: "Table", argument: "associations", expected: expected), at: argument)
                return nil
            }
        }
        let kind: TableConformance.Association.Kind
        switch member.declName.baseName.text {
        case "hasMany" where pivot != nil:
            kind = .hasManyThrough(pivot: pivot ?? "", originKey: originKey, targetKey: targetKey)
        case "hasMany": kind = .hasMany
        case "hasOne": kind = .hasOne
        case "belongsTo": kind = .belongsTo
        default:
            error(.invalidArgument(attribute: "Table", argument: "associations", expected: expected), at: expression)
            return nil
        }
        return TableConformance.Association(
            name: name, kind: kind, target: target, foreignKey: foreignKey,
            documentation: "The `\(target)` records of the `\(name)` association.")
    }

    /// `Album` for `Album.self`.
    private static func typeName(_ expression: ExprSyntax) -> String? {
        guard let member = expression.as(MemberAccessExprSyntax.self), member.declName.baseName.text == "self",
            let base = member.base
        else { return nil }
        return base.trimmedDescription
    }

    /// The values of an array of string literals.
    private static func stringArray(_ expression: ExprSyntax) -> [String]? {
        guard let array = expression.as(ArrayExprSyntax.self) else { return nil }
        var values: [String] = []
        for element in array.elements {
            guard let value = element.expression.stringValue else { return nil }
            values.append(value)
        }
        return values
    }

    /// `artist` for `artistId`, `artist_id` or `artistKey`; the property itself otherwise.
    static func belongsToStem(_ property: String) -> String {
        for suffix in ["Id", "ID", "_id", "Key", "_key"]
        where property.hasSuffix(suffix) && property.count > suffix.count {
            return String(property.dropLast(suffix.count))
        }
        return property
    }
}
