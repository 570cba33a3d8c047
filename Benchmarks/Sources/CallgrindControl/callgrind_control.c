// Callgrind client requests for `slate-bench --instructions`: the harness runs each scenario once
// more under `valgrind --tool=callgrind --instr-atstart=no`, and counts the instructions of exactly
// the timed region of each contender (see Benchmarks/README.md). The requests are valgrind's own
// macros, which cost a few instructions and do nothing outside valgrind.
#include "callgrind_control.h"

#if defined(__has_include)
#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#define SLATE_BENCH_HAVE_CALLGRIND 1
#endif
#endif

int slate_bench_callgrind_available(void) {
#ifdef SLATE_BENCH_HAVE_CALLGRIND
    return 1;
#else
    return 0;
#endif
}

int slate_bench_running_on_valgrind(void) {
#ifdef SLATE_BENCH_HAVE_CALLGRIND
    return RUNNING_ON_VALGRIND ? 1 : 0;
#else
    return 0;
#endif
}

void slate_bench_callgrind_begin(void) {
#ifdef SLATE_BENCH_HAVE_CALLGRIND
    CALLGRIND_START_INSTRUMENTATION;
    CALLGRIND_ZERO_STATS;
#endif
}

void slate_bench_callgrind_end(const char *label) {
#ifdef SLATE_BENCH_HAVE_CALLGRIND
    CALLGRIND_DUMP_STATS_AT(label);
    CALLGRIND_STOP_INSTRUMENTATION;
#else
    (void)label;
#endif
}
