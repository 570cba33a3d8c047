// Compiling the header here also checks, at build time, that the trait's define and the include
// path agree (see shim.h).
#include "shim.h"

/// The calling thread's count of running query-builder clause closures (see shim.h). Plain
/// thread-local storage: each thread reads and writes only its own counter.
static _Thread_local long slate_query_nesting_depth_value = 0;

long slate_query_nesting_depth(void) {
    return slate_query_nesting_depth_value;
}

void slate_set_query_nesting_depth(long depth) {
    slate_query_nesting_depth_value = depth;
}
