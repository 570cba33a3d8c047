// Records declared with the `@Table` macro, and the `slate-macro` contenders that use them. This
// file does not import GRDB, whose `Table` type would make the attribute `@Table` ambiguous.
//
// With SLATE_BENCH_WITHOUT_MACRO=1 in the environment, the manifest leaves the macro out (so
// swift-syntax is not built in release, which takes minutes: CI's quick run does this) and the
// scenarios run without their `slate-macro` contender.
#if SLATE_BENCH_WITHOUT_MACRO
    extension FetchIntegers.Fixture {
        var macroContenders: [Contender] { [] }
    }

    extension Insert.Fixture {
        var macroContenders: [Contender] { [] }
    }
#else
    import Slate
    import SlateMacros

    /// `item(i0 … i9)` declared with `@Table`: the macro writes the positional `init(row:)`,
    /// `encode(to:)`, typed columns and its `TableSchema` (`INTEGER NOT NULL` for `Int`).
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
            checksum.combine(i0)
            checksum.combine(i1)
            checksum.combine(i2)
            checksum.combine(i3)
            checksum.combine(i4)
            checksum.combine(i5)
            checksum.combine(i6)
            checksum.combine(i7)
            checksum.combine(i8)
            checksum.combine(i9)
        }
    }

    extension FetchIntegers.Fixture {
        /// The `@Table` struct, fetched through the typed layer: `SELECT "item"."i0", … FROM "item"`.
        var macroContenders: [Contender] {
            [
                Contender("slate-macro") { stopwatch in
                    try stopwatch.measure { try MacroItem.all().fetchAll(self.slate) }.checksum
                }
            ]
        }
    }

    extension Insert.Fixture {
        /// The same insert as `slate-record` with the `@Table` struct, whose `encode(to:)` the macro
        /// wrote. The records are converted once, untimed.
        var macroContenders: [Contender] {
            let macroItems = items.map(MacroItem.init)
            return [
                Contender("slate-macro") { stopwatch in
                    try self.slateIteration(stopwatch) { db in
                        try db.transaction { _ = try db.insert(contentsOf: macroItems) }
                    }
                }
            ]
        }
    }
#endif
