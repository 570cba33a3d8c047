// Writing a conformance's row code: `init(row:)`, `encode(to:)` and the primary key.

extension TableConformance {
    /// Writes `init(row:)`.
    public func writeDecoding(to out: inout SourceWriter) {
        out.doc("Decodes a record from the row's columns 0, 1, 2 …, in schema order.")
        out.block("\(access)init(row: borrowing \(qualifier)Row) throws") { out in
            // After a column group, positions count its columns.
            var fixed = 0
            var groups: [String] = []
            var reads: [(Property, String)] = []
            for column in recordColumns {
                guard let property = column.property else { continue }
                let index = ([String(fixed)] + groups).joined(separator: " + ")
                if let group = column.groupType {
                    reads.append((property, "try \(group)(row: row, startingAt: \(index))"))
                    groups.append("\(group).groupColumns.count")
                    continue
                }
                reads.append((property, decodeExpression(property, index: index)))
                fixed += 1
            }
            writeReads(reads, to: &out)
        }
    }

    /// Writes an initializer's body from its reads, in the shape ``decodingShape`` names.
    func writeReads(_ reads: [(Property, String)], to out: inout SourceWriter) {
        switch reads.isEmpty ? .assignments : decodingShape {
        case .assignments:
            for (property, expression) in reads { out.line("self.\(property.name) = \(expression)") }
        case .throughInitializer:
            out.line("self.init(")
            out.indent()
            for (offset, (property, expression)) in reads.enumerated() {
                out.line("\(property.plainName): \(expression)" + (offset + 1 < reads.count ? "," : ")"))
            }
            out.outdent()
        case .readsThenAssignments:
            let names = localNames(reads.map(\.0))
            for ((property, expression), name) in zip(reads, names) {
                out.line("let \(name): \(property.typeText) = \(expression)")
            }
            for ((property, _), name) in zip(reads, names) { out.line("self.\(property.name) = \(name)") }
        }
    }

    /// The locals holding the reads of ``DecodingShape/readsThenAssignments``: the property names, but
    /// `valueN` for a name a later read or type could mean (`row`, `index`, a capitalized name
    /// that could be a type or the module).
    func localNames(_ properties: [Property]) -> [String] {
        let taken = Set(properties.map(\.plainName))
        return properties.enumerated().map { offset, property in
            let plain = property.plainName
            let isSafe =
                !["row", "index", "self", "Self"].contains(plain) && plain.first.map { $0.isLowercase } == true
            if isSafe { return property.name }
            var name = "value\(offset)"
            while taken.contains(name) { name = "_" + name }
            return name
        }
    }

    func decodeExpression(_ property: Property, index: String) -> String {
        switch property.storage {
        case .plain where property.checkedTypeAlias != nil:
            return "try row.decode(\(property.valueType)\(property.isOptional ? "?" : "").self, at: \(index))"
        case .plain, .uuid:
            return "try row.decode(at: \(index))"
        case .date(let strategy):
            return "try row.date(at: \(index), strategy: \(strategy))"
        case .json:
            if property.isOptional {
                return "try row.decode(\(qualifier)JSONEncoded<\(property.baseType)>?.self, at: \(index))?.value"
            }
            return "try row.decode(\(qualifier)JSONEncoded<\(property.baseType)>.self, at: \(index)).value"
        }
    }

    func writeEncoding(to out: inout SourceWriter) {
        out.doc("Hands out the record's values, in schema order.")
        out.block(
            "\(access)func encode<Encoder: \(qualifier)ColumnEncoder>(to encoder: inout Encoder) throws(Encoder.Failure)"
        ) { out in
            for column in recordColumns {
                guard let property = column.property else { continue }
                if column.groupType != nil {
                    out.line("try self.\(property.name).encode(to: &encoder)")
                    continue
                }
                out.line("try encoder.encode(\(storedValue(property, value: "self.\(property.name)")))")
            }
        }
    }

    /// The bindable form of `value`: the value itself, or wrapped for its storage.
    func storedValue(_ property: Property, value: String) -> String {
        switch property.storage {
        case .plain:
            guard property.checkedTypeAlias != nil else { return value }
            return "\(value) as \(property.valueType)\(property.isOptional ? "?" : "")"
        case .date(let strategy):
            let strategyValue = strategy.hasPrefix(".") ? "\(qualifier)DateStrategy" + strategy : strategy
            return property.isOptional
                ? "\(value).map { \(qualifier)EncodedDate($0, strategy: \(strategyValue)) }"
                : "\(qualifier)EncodedDate(\(value), strategy: \(strategyValue))"
        case .uuid(let storage):
            let storageValue = storage.hasPrefix(".") ? "\(qualifier)UUIDStorage" + storage : storage
            return property.isOptional
                ? "\(value).map { \(storageValue).sqlValue(for: $0) }" : "\(storageValue).sqlValue(for: \(value))"
        case .json:
            return property.isOptional
                ? "\(value).map(\(qualifier)JSONEncoded<\(property.baseType)>.init)"
                : "\(qualifier)JSONEncoded(\(value))"
        }
    }

    func writeKey(to out: inout SourceWriter) {
        let keys = keyColumns.compactMap(\.property)
        guard !keys.isEmpty else { return }
        let keyType = primaryKeyType
        out.line()
        out.doc("The primary key.")
        if keys.count == 1 {
            out.line("\(access)var primaryKey: \(keyType) { self.\(keys[0].name) }")
            guard keys[0].storage != .plain else { return }
        } else {
            out.line(
                "\(access)var primaryKey: \(keyType) { (" + keys.map { "self.\($0.name)" }.joined(separator: ", ")
                    + ") }")
        }
        out.line()
        out.doc("Hands out the key's values, stored as their columns store them.")
        out.block(
            "\(access)static func encode<Encoder: \(qualifier)ColumnEncoder>(primaryKey key: \(keyType), to encoder: inout Encoder) throws(Encoder.Failure)"
        ) { out in
            if keys.count == 1 {
                out.line("try encoder.encode(\(storedValue(keys[0], value: "key")))")
            } else {
                for (index, property) in keys.enumerated() {
                    out.line("try encoder.encode(\(storedValue(property, value: "key.\(index)")))")
                }
            }
        }
    }
}
