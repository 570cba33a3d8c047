// Writing a conformance's members: the schema, the typed columns and a group's members.

extension TableConformance {
    /// Writes the conformance's members at the writer's current indentation.
    ///
    /// Without `decoding`, `init(row:)` is left out: a writer puts it in an extension with
    /// ``writeDecoding(to:)``, so that the struct keeps its synthesized memberwise initializer.
    public func writeMembers(to out: inout SourceWriter, decoding: Bool = true) {
        writeCheckedTypeAliases(to: &out)
        writeSchema(to: &out)
        out.line()
        writeColumns(to: &out)
        out.line()
        if decoding {
            writeDecoding(to: &out)
            out.line()
        }
        writeEncoding(to: &out)
        if let property = rowIDProperty {
            out.line()
            out.doc("Stores the rowid SQLite assigned to the inserted record.")
            out.block("\(access)mutating func didInsert(rowID: Int64) throws") { out in
                if property.baseType == "Int64" || property.baseType == "Swift.Int64" {
                    out.line("self.\(property.name) = rowID")
                } else {
                    out.line(
                        "self.\(property.name) = try \(qualifier)RowID.converted(rowID, to: \(property.baseType).self)")
                }
            }
        }
        if isKeyed { writeKey(to: &out) }
    }

    /// The members, as text indented one level: what the macro puts in its extension.
    public func membersText(documents: Bool = false) -> String {
        var out = SourceWriter(documents: documents)
        out.indent()
        writeMembers(to: &out)
        return out.text
    }

    func writeSchema(to out: inout SourceWriter) {
        out.doc("The `\(tableName)` \(kind.noun): its columns, keys and indexes.")
        out.line("\(access)static let schema = \(qualifier)TableSchema(")
        out.indent()
        var arguments: [String] = ["name: \(SwiftLiteral.string(tableName))"]
        switch kind {
        case .table: break
        case .view: arguments.append("kind: .view")
        case .virtual(let module, let moduleArguments):
            arguments.append(
                "kind: .virtual(module: \(SwiftLiteral.string(module)), arguments: \(SwiftLiteral.sql(moduleArguments)))"
            )
        }
        out.line(arguments.joined(separator: ", ") + ",")
        out.line("columns: [")
        out.indent()
        for column in columns {
            if let group = column.groupType {
                // The group's columns, spliced in where its property is.
                out.outdent()
                out.line("] + \(group).groupColumns + [")
                out.indent()
            } else {
                out.line(columnLiteral(column) + ",")
            }
        }
        out.outdent()
        var tail: [String] = []
        if !foreignKeys.isEmpty {
            tail.append("foreignKeys: [\n" + foreignKeys.map { "    " + foreignKeyLiteral($0) + ",\n" }.joined() + "]")
        }
        if !indexes.isEmpty {
            tail.append("indexes: [\n" + indexes.map { "    " + indexLiteral($0) + ",\n" }.joined() + "]")
        }
        if !uniqueConstraints.isEmpty {
            tail.append(
                "uniqueConstraints: ["
                    + uniqueConstraints.map { "[" + $0.map(SwiftLiteral.string).joined(separator: ", ") + "]" }.joined(
                        separator: ", ") + "]")
        }
        if isWithoutRowID { tail.append("isWithoutRowID: true") }
        if isStrict { tail.append("isStrict: true") }
        out.line("]" + (tail.isEmpty ? ")" : ","))
        for (index, part) in tail.enumerated() {
            out.line(part + (index == tail.count - 1 ? ")" : ","))
        }
        out.outdent()
    }

    func columnLiteral(_ column: Column) -> String {
        var arguments = ["name: \(SwiftLiteral.string(column.name))"]
        if column.typeExpression != "\"\"" { arguments.append("type: \(column.typeExpression)") }
        if column.isNotNull { arguments.append("isNotNull: true") }
        if let position = column.primaryKeyPosition { arguments.append("primaryKeyPosition: \(position)") }
        if column.isPrimaryKeyDescending { arguments.append("isPrimaryKeyDescending: true") }
        if column.isAutoIncrement { arguments.append("isAutoIncrement: true") }
        if column.isUnique { arguments.append("isUnique: true") }
        if let defaultSQL = column.defaultSQL { arguments.append("defaultSQL: \(SwiftLiteral.sql(defaultSQL))") }
        if let collation = column.collation { arguments.append("collation: \(SwiftLiteral.string(collation))") }
        if let generation = column.generation { arguments.append("generation: .\(generation)") }
        if let expression = column.generationExpression {
            arguments.append("generationExpression: \(SwiftLiteral.sql(expression))")
        }
        return ".init(" + arguments.joined(separator: ", ") + ")"
    }

    func foreignKeyLiteral(_ key: ForeignKey) -> String {
        var arguments = [
            "columns: [" + key.columns.map(SwiftLiteral.string).joined(separator: ", ") + "]",
            "referencedTable: \(key.referencedTable)",
        ]
        if !key.referencedColumns.isEmpty {
            arguments.append(
                "referencedColumns: [" + key.referencedColumns.map(SwiftLiteral.string).joined(separator: ", ") + "]")
        }
        if let action = key.onDelete { arguments.append("onDelete: \(action)") }
        if let action = key.onUpdate { arguments.append("onUpdate: \(action)") }
        return ".init(" + arguments.joined(separator: ", ") + ")"
    }

    func indexLiteral(_ index: Index) -> String {
        var arguments = [
            "name: \(SwiftLiteral.string(index.name))",
            "columns: [" + index.columns.map(SwiftLiteral.string).joined(separator: ", ") + "]",
        ]
        if index.isUnique { arguments.append("isUnique: true") }
        if let condition = index.condition { arguments.append("condition: \(SwiftLiteral.sql(condition))") }
        return ".init(" + arguments.joined(separator: ", ") + ")"
    }

    /// The value type of a property's typed column.
    func columnValueType(_ property: Property) -> String {
        let isOptional = property.isOptional && !property.isNilForDefault
        guard property.storage == .json else { return property.valueType + (isOptional ? "?" : "") }
        return "\(qualifier)JSONEncoded<\(property.baseType)>" + (isOptional ? "?" : "")
    }

    func writeColumns(to out: inout SourceWriter) {
        let example = recordColumns.first?.property?.plainName ?? "column"
        out.doc("The typed columns, for queries: `\(typeName).where { $0.\(example) == … }`.")
        let isFullText = kind.isFullTextSearch
        out.block("\(access)struct Columns: \(qualifier)\(isFullText ? "FullTextColumns" : "TableColumns")") { out in
            if isFullText {
                out.doc("The row's `rowid`: for an external-content table, the content row's key.")
                out.line("\(access)let rowid: \(qualifier)Column<\(typeName), Int64>")
            }
            for column in recordColumns {
                guard let property = column.property else { continue }
                if let documentation = column.documentation { out.doc(documentation) }
                if let group = column.groupType {
                    out.line("\(access)let \(property.name): \(group).Columns<\(typeName)>")
                    continue
                }
                out.line("\(access)let \(property.name): \(qualifier)Column<\(typeName), \(columnValueType(property))>")
            }
            out.line()
            out.doc("The columns, qualified by the table name or an alias.")
            out.block("\(access)init(qualifier: String)") { out in
                if isFullText { out.line("self.rowid = \(qualifier)Column(qualifier, \"rowid\")") }
                for column in recordColumns {
                    guard let property = column.property else { continue }
                    if let group = column.groupType {
                        out.line("self.\(property.name) = \(group).Columns(qualifier: qualifier)")
                        continue
                    }
                    var arguments = "qualifier, \(SwiftLiteral.string(column.name))"
                    switch property.storage {
                    case .date(let strategy): arguments += ", storage: .date(\(strategy))"
                    case .uuid(let storage): arguments += ", storage: .uuid(\(storage))"
                    case .plain, .json: break
                    }
                    out.line(
                        "self.\(property.name) = \(qualifier)Column\(checkedGenerics(property, root: typeName))(\(arguments))"
                    )
                }
            }
            writeAssociations(to: &out)
        }
    }

    /// The members of a `ColumnGroup` conformance, indented one level: the group's columns, its
    /// typed columns (generic over the parent table), and reading and handing out its values from
    /// a starting position.
    public func groupMembersText() -> String {
        var out = SourceWriter(documents: false)
        out.indent()
        writeCheckedTypeAliases(to: &out)
        out.line("\(access)static let groupColumns: [\(qualifier)TableSchema.Column] = [")
        out.indent()
        for column in recordColumns { out.line(columnLiteral(column) + ",") }
        out.outdent()
        out.line("]")
        out.line()
        out.block("\(access)struct Columns<Root: \(qualifier)Table>: Sendable") { out in
            for column in recordColumns {
                guard let property = column.property else { continue }
                out.line("\(access)let \(property.name): \(qualifier)Column<Root, \(columnValueType(property))>")
            }
            out.line()
            out.block("\(access)init(qualifier: String)") { out in
                for column in recordColumns {
                    guard let property = column.property else { continue }
                    out.line(
                        "self.\(property.name) = \(qualifier)Column\(checkedGenerics(property, root: "Root"))(\(columnArguments(column, property)))"
                    )
                }
            }
        }
        out.line()
        out.block("\(access)init(row: borrowing \(qualifier)Row, startingAt index: Int) throws") { out in
            var reads: [(Property, String)] = []
            for (offset, column) in recordColumns.enumerated() {
                guard let property = column.property else { continue }
                reads.append((property, decodeExpression(property, index: offset == 0 ? "index" : "index + \(offset)")))
            }
            writeReads(reads, to: &out)
        }
        out.line()
        writeEncoding(to: &out)
        return out.text
    }

    /// `qualifier, "name"[, storage: …]`: the arguments of a typed column's initializer.
    func columnArguments(_ column: Column, _ property: Property) -> String {
        var arguments = "qualifier, \(SwiftLiteral.string(column.name))"
        switch property.storage {
        case .date(let strategy): arguments += ", storage: .date(\(strategy))"
        case .uuid(let storage): arguments += ", storage: .uuid(\(storage))"
        case .plain, .json: break
        }
        return arguments
    }
}
