import Foundation
import SlateCodeModel
import SlateCore
import SlateQuery

// The associations `slate generate` writes from the schema's foreign keys, as members of each
// record's `Columns`:
//
// - on the table holding a foreign key, a `BelongsTo` named after the key's column without its
//   `Id` suffix (`Album.artist` for `Album.ArtistId`), or after the column and the parent type when
//   that name is a column's (`Employee.reportsToEmployee` for `Employee.ReportsTo`);
// - on the referenced table, a `HasMany` named after the plural of the child type (`Artist.albums`),
//   with `By` and the key's columns when the child has several keys to it or is the same table
//   (`Employee.employeesByReportsTo`);
// - a key is named by its columns (`foreignKey: [...]`) whenever the child's schema holds several
//   keys to the parent's table, counting those that give no association, so that the runtime,
//   which looks among all of them, never finds the association ambiguous;
// - on each side of a linking table (exactly two foreign keys, to two other tables, and no other
//   columns: `PlaylistTrack`), a `HasMany` through it (`Playlist.tracks`, `Track.playlists`).
//
// Names never collide with the record's column properties or with each other: a taken name gets a
// number suffix. Foreign keys to tables that are not generated give no association.

extension GenerationModel {
    /// Names and records the associations of every record, in a fixed order.
    mutating func assignAssociations() {
        var names = records.map { record in
            NameRegistry(
                reserved: Set(record.properties.map(\.swiftName)).union(Naming.memberReserved).union(["rowid"]))
        }
        var associations: [[TableConformance.Association]] = records.map { _ in [] }
        for childIndex in records.indices {
            let child = records[childIndex]
            for key in child.foreignKeys {
                guard let parent = key.parent else { continue }
                let parentRecord = records[parent]
                // Every key of the generated schema to the parent's table counts, resolved or not
                // (a key naming columns the parent lacks): the runtime chooses among them all.
                let siblings = child.foreignKeys.filter {
                    $0.key.referencedTable.caseInsensitiveEquals(parentRecord.sqlName)
                }.count
                let columnNames = key.columns.map { child.properties[$0].sqlName }
                let named = siblings > 1 ? columnNames : nil
                let keyText = columnNames.joined(separator: ", ")

                var stem = Self.associationStem(of: key, in: child, parent: parentRecord)
                if names[childIndex].contains(stem) { stem += parentRecord.typeName }
                associations[childIndex].append(
                    TableConformance.Association(
                        name: Naming.escaped(names[childIndex].claim(stem)), kind: .belongsTo,
                        target: parentRecord.qualifiedTypeName, foreignKey: named,
                        documentation: "The `\(parentRecord.typeName)` record that `\(keyText)` references."))

                var plural = Naming.propertyName(Naming.plural(child.typeName))
                if siblings > 1 || parent == childIndex {
                    plural += "By" + key.columns.map { Naming.typeName(child.properties[$0].swiftName) }.joined()
                }
                associations[parent].append(
                    TableConformance.Association(
                        name: Naming.escaped(names[parent].claim(plural)), kind: .hasMany,
                        target: child.qualifiedTypeName, foreignKey: parent == childIndex ? columnNames : named,
                        documentation: "The `\(child.typeName)` records whose `\(keyText)` references this record."))
            }
        }
        for pivotIndex in records.indices where records[pivotIndex].isTable {
            let pivot = records[pivotIndex]
            let keys = pivot.foreignKeys.filter { $0.parent != nil }
            guard keys.count == 2, pivot.foreignKeys.count == 2, let first = keys[0].parent,
                let second = keys[1].parent, first != second, first != pivotIndex, second != pivotIndex
            else { continue }
            let keyed = Set(keys.flatMap(\.columns))
            guard pivot.properties.indices.allSatisfy({ keyed.contains($0) }) else { continue }
            for (origin, target) in [(first, second), (second, first)] {
                let name = Naming.propertyName(Naming.plural(records[target].typeName))
                associations[origin].append(
                    TableConformance.Association(
                        name: Naming.escaped(names[origin].claim(name)),
                        kind: .hasManyThrough(pivot: pivot.qualifiedTypeName, originKey: nil, targetKey: nil),
                        target: records[target].qualifiedTypeName,
                        documentation: "The `\(records[target].typeName)` records linked with this one by "
                            + "`\(pivot.typeName)` rows."))
            }
        }
        for index in records.indices { records[index].associations = associations[index] }
    }

    /// The lowerCamel name of a foreign key's `BelongsTo`: its column without an `Id` (or `Key`,
    /// `Fk`, `No`, `Code`) suffix, or the parent type's name for a key of several columns.
    static func associationStem(of key: ForeignKeyModel, in child: RecordModel, parent: RecordModel) -> String {
        guard key.columns.count == 1 else { return Naming.propertyName(parent.typeName) }
        let property = child.properties[key.columns[0]].swiftName
        let words = Naming.words(property)
        if words.count > 1, let last = words.last, ["id", "key", "fk", "no", "code"].contains(last.lowercased()) {
            return Naming.propertyName(words.dropLast().joined(separator: " "))
        }
        return property
    }
}
