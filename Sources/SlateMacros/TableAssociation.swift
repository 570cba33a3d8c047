/// An association declared in `@Table(associations:)`. Only the macro reads it: it writes the
/// association as a member of the table's `Columns`, where the compiler checks that the target and
/// linking types are tables. A type cannot name itself here (a circular reference): write its
/// associations to itself by hand, in an extension of its `Columns`.
///
/// ```swift
/// @Table(associations: [.hasMany("albums", Album.self)])
/// struct Artist { var id: Int64?; var name: String }
///
/// @Table(associations: [.hasMany("tracks", Track.self, through: PlaylistTrack.self)])
/// struct Playlist { var id: Int64?; var name: String }
/// ```
public struct TableAssociation: Sendable {
    private init() {}

    /// The records of `target` whose foreign key references this table (`foreignKey`: its
    /// referencing columns, when `target` has several keys to this table).
    public static func hasMany(_ name: String, _ target: Any.Type, foreignKey: [String]? = nil) -> TableAssociation {
        TableAssociation()
    }

    /// The records of `target` that rows of `pivot` link with this table.
    public static func hasMany(
        _ name: String, _ target: Any.Type, through pivot: Any.Type, originKey: [String]? = nil,
        targetKey: [String]? = nil
    ) -> TableAssociation {
        TableAssociation()
    }

    /// The one record of `target` whose foreign key references this table.
    public static func hasOne(_ name: String, _ target: Any.Type, foreignKey: [String]? = nil) -> TableAssociation {
        TableAssociation()
    }

    /// The record of `target` that this table's foreign key (`foreignKey`: its columns, when it has
    /// several to `target`) references.
    public static func belongsTo(_ name: String, _ target: Any.Type, foreignKey: [String]? = nil) -> TableAssociation {
        TableAssociation()
    }
}
