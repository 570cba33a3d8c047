import SlateMacros

// Records declared with the `@Table` macro. This file does not import GRDB, whose `Table` type
// would make the attribute `@Table` ambiguous.

/// `item(i0 … i9)` declared with `@Table`: the macro writes the positional `init(row:)`,
/// `bindColumns`, typed columns and column descriptors (`INTEGER NOT NULL` for `Int`).
@Table("item")
struct MacroItem: Equatable {
    var i0, i1, i2, i3, i4, i5, i6, i7, i8, i9: Int
}

extension MacroItem: Checksummable {
    init(_ item: Item) {
        self.init(
            i0: item.i0, i1: item.i1, i2: item.i2, i3: item.i3, i4: item.i4,
            i5: item.i5, i6: item.i6, i7: item.i7, i8: item.i8, i9: item.i9)
    }

    func combine(into checksum: inout Checksum) {
        checksum.combine(i0); checksum.combine(i1); checksum.combine(i2); checksum.combine(i3); checksum.combine(i4)
        checksum.combine(i5); checksum.combine(i6); checksum.combine(i7); checksum.combine(i8); checksum.combine(i9)
    }
}
