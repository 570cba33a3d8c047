import SwiftSyntax

/// The names of the property attributes the macros understand.
enum PropertyAttribute: String, CaseIterable {
    case column = "Column"
    case primaryKey = "PrimaryKey"
    case ignored = "Ignored"
    case transient = "Transient"
    case unique = "Unique"
    case foreignKey = "ForeignKey"
    case indexed = "Indexed"
    case grouped = "Grouped"

    /// The attribute an `AttributeSyntax` names, with or without a `SlateMacros.` prefix.
    init?(_ attribute: AttributeSyntax) {
        var name = attribute.attributeName.trimmedDescription
        if let dot = name.lastIndex(of: ".") { name = String(name[name.index(after: dot)...]) }
        self.init(rawValue: name)
    }
}

extension AttributeSyntax {
    /// The attribute's arguments, or an empty list.
    var argumentList: LabeledExprListSyntax {
        if case .argumentList(let list) = arguments { return list }
        return []
    }

    /// The argument labelled `label` (`nil` for the unlabelled first one).
    func argument(_ label: String?) -> ExprSyntax? {
        argumentList.first { $0.label?.text == label }?.expression
    }
}

extension ExprSyntax {
    /// The value of a plain string literal (no interpolation), or `nil`.
    var stringValue: String? {
        self.as(StringLiteralExprSyntax.self)?.representedLiteralValue
    }

    /// The value of a `true` / `false` literal, or `nil`.
    var boolValue: Bool? {
        guard let literal = self.as(BooleanLiteralExprSyntax.self) else { return nil }
        return literal.literal.tokenKind == .keyword(.true)
    }

    /// Whether the expression is the `nil` literal.
    var isNilLiteral: Bool { self.is(NilLiteralExprSyntax.self) }

    /// The SQL text of a literal default value (`0`, `-1.5`, `'text'`, `1` for `true`), or `nil` when
    /// the expression is not a simple literal.
    var sqlLiteral: String? {
        if let integer = self.as(IntegerLiteralExprSyntax.self) {
            return String(integer.literal.text.filter { $0 != "_" })
        }
        if let float = self.as(FloatLiteralExprSyntax.self) {
            return String(float.literal.text.filter { $0 != "_" })
        }
        if let bool = boolValue { return bool ? "1" : "0" }
        if let text = stringValue {
            return "'" + text.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "''") + "'"
        }
        if let prefix = self.as(PrefixOperatorExprSyntax.self), prefix.operator.text == "-",
            let operand = prefix.expression.sqlLiteral, let first = operand.first, first.isNumber
        {
            return "-" + operand
        }
        return nil
    }

    /// The Swift type of a literal initializer, for a fix-it that adds a missing annotation.
    var literalTypeName: String? {
        if self.is(IntegerLiteralExprSyntax.self) { return "Int" }
        if self.is(FloatLiteralExprSyntax.self) { return "Double" }
        if self.is(BooleanLiteralExprSyntax.self) { return "Bool" }
        if self.is(StringLiteralExprSyntax.self) { return "String" }
        if let prefix = self.as(PrefixOperatorExprSyntax.self), prefix.operator.text == "-" {
            return prefix.expression.literalTypeName
        }
        return nil
    }
}
