// Compiling the header here also checks, at build time, that the trait's define and the include
// path agree (see shim.h).
#include "shim.h"

#include <stdatomic.h>

/// The last number `slate_next_query_scope` returned (see shim.h).
///
/// A C11 atomic rather than Swift's `Synchronization.Atomic`, which needs macOS 15, iOS 18, tvOS 18
/// and watchOS 11, while the package supports macOS 13, iOS 16, tvOS 16 and watchOS 9.
static _Atomic uint64_t slate_last_query_scope = 0;

uint64_t slate_next_query_scope(void) {
    return atomic_fetch_add_explicit(&slate_last_query_scope, 1, memory_order_relaxed) + 1;
}

/// The SQLite functions of the hot read path (see shim.h): filled in by the dynamic loader with the
/// library's own addresses, then never written.
///
/// `nodebug`: described in this file's debug information (DWARF 5), the table's type names SQLite's
/// opaque structs, and Valgrind 3.19 then refuses the whole program ("debuginfo reader: Possibly
/// corrupted debuginfo file") once a Swift unit (DWARF 4) sits beside it, so callgrind and
/// memcheck could no longer run Slate programs.
__attribute__((nodebug)) const struct slate_sqlite_calls slate_sqlite_calls = {
    .step = sqlite3_step,
    .column_count = sqlite3_column_count,
    .column_type = sqlite3_column_type,
    .column_value = sqlite3_column_value,
    .value_type = sqlite3_value_type,
    .value_int64 = sqlite3_value_int64,
    .value_double = sqlite3_value_double,
    .value_text = sqlite3_value_text,
    .value_blob = sqlite3_value_blob,
    .value_bytes = sqlite3_value_bytes,
};
