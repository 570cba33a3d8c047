#ifndef SLATE_BENCH_CALLGRIND_CONTROL_H
#define SLATE_BENCH_CALLGRIND_CONTROL_H

/// Whether valgrind's client-request header was available when the harness was built: without it,
/// the functions below do nothing and `slate-bench --instructions` refuses to run.
int slate_bench_callgrind_available(void);

/// Whether the process runs under valgrind.
int slate_bench_running_on_valgrind(void);

/// Starts counting: turns callgrind's instrumentation on and zeroes its counters.
void slate_bench_callgrind_begin(void);

/// Stops counting: writes the counters since `slate_bench_callgrind_begin` to a dump file whose
/// description is `label`, and turns the instrumentation off.
void slate_bench_callgrind_end(const char *label);

#endif
