// Types the writer cannot vouch for (the macro's user types) are named through one typealias per
// property, which checks that the type is a column value: a type that is not is reported once, at
// the alias, instead of at each use (issue 36).

extension TableConformance {
    /// The namespace of the checked typealiases (an extension macro can add only declarations it
    /// names: one enum, whatever the properties).
    public static let checkedTypeNamespace = "_SlateColumnValues"

    /// The typealiases of properties with a ``Property/checkedTypeAlias``, one conformance check per
    /// property, in the enum ``checkedTypeNamespace``.
    func writeCheckedTypeAliases(to out: inout SourceWriter) {
        let checked = recordColumns.compactMap(\.property).filter { $0.checkedTypeAlias != nil }
        guard !checked.isEmpty else { return }
        out.block("\(access)enum \(Self.checkedTypeNamespace)") { out in
            for property in checked {
                guard let alias = property.checkedTypeAlias?.split(separator: ".").last else { continue }
                out.line("\(access)typealias \(alias) = \(qualifier)ColumnValueCheck<\(property.baseType)>.Checked")
            }
        }
        out.line()
    }

    /// `<Root, Value>` for a property checked through an alias (spelled out, so that a type that
    /// is not a column value is reported at the alias only), else nothing.
    func checkedGenerics(_ property: Property, root: String) -> String {
        property.checkedTypeAlias == nil ? "" : "<\(root), \(columnValueType(property))>"
    }
}
