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
