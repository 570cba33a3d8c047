// Associations as members of a table's `Columns`, written the way a hand-written table declares
// them: a computed property qualified as the columns are.
//
//     /// The `Album` records whose foreign key (`ArtistId`) references this record.
//     var albums: HasMany<Artist, Album> { .hasMany(artistId.qualifier) }

extension TableConformance {
    /// An association of the table: a member of its `Columns`.
    public struct Association: Sendable {
        /// How the two tables are linked.
        public enum Kind: Sendable {
            /// A foreign key of this table references the target: `BelongsTo`.
            case belongsTo
            /// A foreign key of the target references this table, at most one record: `HasOne`.
            case hasOne
            /// A foreign key of the target references this table: `HasMany`.
            case hasMany
            /// Rows of `pivot` (a Swift type name) link this table with the target: `HasMany`;
            /// `originKey` and `targetKey` name the pivot's columns when it has several keys to one
            /// side.
            case hasManyThrough(pivot: String, originKey: [String]?, targetKey: [String]?)
        }

        /// The member name.
        public var name: String
        /// How the tables are linked.
        public var kind: Kind
        /// The target record type, as written in code.
        public var target: String
        /// The referencing columns of the foreign key, named when the table holding it has several
        /// to the other table.
        public var foreignKey: [String]?
        /// The member's documentation.
        public var documentation: String?

        /// Creates an association.
        public init(
            name: String, kind: Kind, target: String, foreignKey: [String]? = nil, documentation: String? = nil
        ) {
            self.name = name
            self.kind = kind
            self.target = target
            self.foreignKey = foreignKey
            self.documentation = documentation
        }
    }

    /// The associations, inside `Columns`, after its initializer. Each reads the qualifier from a
    /// column; a table whose columns are all column groups gets none.
    func writeAssociations(to out: inout SourceWriter) {
        guard !associations.isEmpty else { return }
        let qualifierSource: String
        if kind.isFullTextSearch {
            qualifierSource = "rowid"
        } else if let column = recordColumns.first(where: { $0.groupType == nil }), let property = column.property {
            qualifierSource = property.name
        } else {
            return
        }
        for association in associations {
            out.line()
            if let documentation = association.documentation { out.doc(documentation) }
            let origin = "\(qualifierSource).qualifier"
            let type: String
            var arguments = [origin]
            switch association.kind {
            case .belongsTo:
                type = "BelongsTo"
                if let key = association.foreignKey { arguments.append("foreignKey: " + Self.stringArray(key)) }
            case .hasOne:
                type = "HasOne"
                if let key = association.foreignKey { arguments.append("foreignKey: " + Self.stringArray(key)) }
            case .hasMany:
                type = "HasMany"
                if let key = association.foreignKey { arguments.append("foreignKey: " + Self.stringArray(key)) }
            case .hasManyThrough(let pivot, let originKey, let targetKey):
                type = "HasMany"
                arguments.append("through: \(pivot).self")
                if let originKey { arguments.append("originKey: " + Self.stringArray(originKey)) }
                if let targetKey { arguments.append("targetKey: " + Self.stringArray(targetKey)) }
            }
            let constructor: String
            switch association.kind {
            case .belongsTo: constructor = "belongsTo"
            case .hasOne: constructor = "hasOne"
            case .hasMany, .hasManyThrough: constructor = "hasMany"
            }
            out.line(
                "\(access)var \(association.name): \(qualifier)\(type)<\(typeName), \(association.target)> "
                    + "{ .\(constructor)(\(arguments.joined(separator: ", "))) }")
        }
    }

    /// `["a", "b"]`.
    private static func stringArray(_ values: [String]) -> String {
        "[" + values.map(SwiftLiteral.string).joined(separator: ", ") + "]"
    }
}
