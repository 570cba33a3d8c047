import SwiftDiagnostics
import SwiftSyntax

// What the macro can tell about how a property's type is stored: UUID text (declared NOCASE), and
// the enums declared inside the struct, whose conformances it can see (issue 36).

extension TableParser {
    /// The enum declared inside the struct that `typeName` (`Genre` or `Self.Genre`) names.
    func nestedEnum(named typeName: String) -> EnumDeclSyntax? {
        let name = typeName.hasPrefix("Self.") ? String(typeName.dropFirst(5)) : typeName
        return name.contains(".") ? nil : nestedEnums[name]
    }

    /// The protocols that make a type a column value, as an inheritance clause may name them.
    static let storageProtocols: Set<String> = [
        "SQLValueConvertible", "SQLBindable", "SQLExtractable", "JSONStorable", "ColumnGroup",
    ]

    /// Whether the enum's own declaration makes it a column value.
    static func declaresStorage(_ enumDecl: EnumDeclSyntax) -> Bool {
        guard let inherited = enumDecl.inheritanceClause?.inheritedTypes else { return false }
        return inherited.contains { element in
            let name = element.type.trimmedDescription.split(separator: ".").last.map(String.init) ?? ""
            return storageProtocols.contains(name)
        }
    }

    /// One error at the property, with fix-its: make the enum `SQLValueConvertible` (it stores its
    /// raw value), or store the property as JSON. The compiler would otherwise report the missing
    /// conformance several times inside the expansion.
    mutating func diagnoseUnstorableEnum(
        _ enumDecl: EnumDeclSyntax, property: String, variable: VariableDeclSyntax, type: TypeSyntax
    ) {
        let inherited = enumDecl.inheritanceClause?.inheritedTypes.map { $0.type.trimmedDescription } ?? []
        let hasRawValue = inherited.contains {
            ["String", "Int", "Int64", "Int32", "Double", "Swift.String"].contains($0)
        }
        let isCodable = inherited.contains {
            ["Codable", "Decodable & Encodable", "Encodable & Decodable"].contains($0)
        }
        var fixIts: [FixIt] = []
        if hasRawValue {
            var fixed = enumDecl
            let protocolName = TypeSyntax(IdentifierTypeSyntax(name: .identifier("SQLValueConvertible")))
            if var clause = enumDecl.inheritanceClause {
                var types = Array(clause.inheritedTypes)
                var trailing = Trivia()
                if var last = types.popLast() {
                    // `Codable {` becomes `Codable, SQLValueConvertible {`: the space moves to the end.
                    trailing = last.type.trailingTrivia
                    last.type = last.type.with(\.trailingTrivia, [])
                    last.trailingComma = .commaToken(trailingTrivia: .space)
                    types.append(last)
                }
                types.append(InheritedTypeSyntax(type: protocolName.with(\.trailingTrivia, trailing)))
                clause.inheritedTypes = InheritedTypeListSyntax(types)
                fixed.inheritanceClause = clause
            }
            fixIts.append(
                FixIt(
                    message: TableFixIt(message: "make '\(enumDecl.name.text)' SQLValueConvertible"),
                    changes: [.replace(oldNode: Syntax(enumDecl), newNode: Syntax(fixed))]))
        }
        if isCodable {
            fixIts.append(
                Self.addAttributeFixIt(variable, attribute: "@Column(storage: .json)", message: "store it as JSON"))
        }
        error(
            .enumNotStorable(
                property: property, type: type.trimmedDescription, enumName: enumDecl.name.text,
                hasRawValue: hasRawValue),
            at: type, fixIts: fixIts)
    }

    /// Whether a UUID property stored this way is stored as text.
    static func isUUIDText(_ storage: ColumnStorage) -> Bool {
        switch storage {
        case .plain: return true
        case .uuid(let expression): return !expression.hasSuffix("blob")
        default: return false
        }
    }

}
