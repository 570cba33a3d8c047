// The cost of issue 36's UUID matching on an indexed lookup, in SQLite itself: Slate compares a
// UUID stored as text with `= ? COLLATE NOCASE` and declares the columns it creates
// `COLLATE NOCASE`, where it used to compare `= ?` on a BINARY column. Three cases, on a table of
// ROWS rows keyed by a UUID (lowercase text, the key's automatic index), LOOKUPS lookups of
// existing keys through one prepared statement (reset, bind, step, read one column):
//
//   binary-exact    BINARY column, `WHERE id = ?`, key in the stored case (Slate before issue 36)
//   nocase-nocase   NOCASE column, `WHERE id = ? COLLATE NOCASE`, key in uppercase (Slate now)
//   binary-nocase   BINARY column, `WHERE id = ? COLLATE NOCASE` (a table created before issue 36
//                   and never migrated: the index cannot serve it, every lookup scans; `slate check`
//                   warns about such columns). Fewer lookups: each one reads the whole table.
//
// Wall time: median of 5 rounds (CLOCK_MONOTONIC). Instructions: run under
// `valgrind --tool=callgrind --instr-atstart=no`, where only a warm-up and the counted round run;
// each case's lookups are one counted region (callgrind client requests), dumped as its own part.
// See run.sh.
#include <sqlite3.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <valgrind/callgrind.h>

enum { ROWS = 100000, LOOKUPS = 100000, SCAN_LOOKUPS = 20, ROUNDS = 5 };

static void check(int rc, sqlite3 *db, const char *what) {
    if (rc != SQLITE_OK && rc != SQLITE_DONE && rc != SQLITE_ROW) {
        fprintf(stderr, "%s: %s\n", what, sqlite3_errmsg(db));
        exit(1);
    }
}

static uint64_t state = 0x9E3779B97F4A7C15u;
static uint64_t next_random(void) {  // xorshift64*, fixed seed: the same keys every run
    state ^= state >> 12;
    state ^= state << 25;
    state ^= state >> 27;
    return state * 0x2545F4914F6CDD1Du;
}

static void uuid_text(char out[37], int upper) {
    uint64_t a = next_random(), b = next_random();
    const char *digits = upper ? "0123456789ABCDEF" : "0123456789abcdef";
    int n = 0;
    for (int i = 0; i < 32; i++) {
        if (i == 8 || i == 12 || i == 16 || i == 20) out[n++] = '-';
        uint64_t word = i < 16 ? a : b;
        out[n++] = digits[(word >> ((i % 16) * 4)) & 15];
    }
    out[n] = 0;
}

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static int compare_doubles(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static char (*keys)[37];

// One round: `count` lookups of keys[0..count) (uppercased when `upper`); returns rows found.
static long lookups(sqlite3_stmt *statement, int count, int upper) {
    long found = 0;
    char key[37];
    for (int i = 0; i < count; i++) {
        memcpy(key, keys[(i * 7919) % ROWS], 37);
        if (upper)
            for (int j = 0; j < 36; j++)
                if (key[j] >= 'a' && key[j] <= 'f') key[j] -= 32;
        sqlite3_reset(statement);
        sqlite3_bind_text(statement, 1, key, 36, SQLITE_STATIC);
        if (sqlite3_step(statement) == SQLITE_ROW) found += sqlite3_column_int64(statement, 0) >= 0;
    }
    return found;
}

static void run_case(sqlite3 *db, const char *name, const char *sql, int count, int upper) {
    sqlite3_stmt *statement;
    check(sqlite3_prepare_v2(db, sql, -1, &statement, NULL), db, sql);
    lookups(statement, count, upper);  // warm-up
    double times[ROUNDS] = {0};
    long found = count;
    // Under valgrind only the counted round runs (its wall times would mean nothing).
    for (int round = 0; round < ROUNDS && !RUNNING_ON_VALGRIND; round++) {
        double start = now();
        found = lookups(statement, count, upper);
        times[round] = now() - start;
    }
    qsort(times, ROUNDS, sizeof times[0], compare_doubles);
    if (found != count) {
        fprintf(stderr, "%s: found %ld of %d keys\n", name, found, count);
        exit(1);
    }
    CALLGRIND_START_INSTRUMENTATION;
    CALLGRIND_ZERO_STATS;
    lookups(statement, count, upper);
    CALLGRIND_DUMP_STATS_AT(name);
    CALLGRIND_STOP_INSTRUMENTATION;
    // The plan, to show which lookups use the index.
    sqlite3_stmt *plan;
    char explain[256];
    snprintf(explain, sizeof explain, "EXPLAIN QUERY PLAN %s", sql);
    check(sqlite3_prepare_v2(db, explain, -1, &plan, NULL), db, explain);
    const char *detail = sqlite3_step(plan) == SQLITE_ROW ? (const char *)sqlite3_column_text(plan, 3) : "?";
    printf("%-14s %6d lookups  median %9.3f ms  %8.3f us/lookup  plan: %s\n", name, count, times[ROUNDS / 2] * 1e3,
           times[ROUNDS / 2] * 1e6 / count, detail);
    sqlite3_finalize(plan);
    sqlite3_finalize(statement);
}

int main(void) {
    sqlite3 *db;
    check(sqlite3_open_v2(":memory:", &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, NULL),
          db, "open");
    // The columns as Slate declares a UUID primary key (TEXT, NOT NULL), with and without NOCASE.
    check(sqlite3_exec(db,
                       "CREATE TABLE book_binary(id TEXT NOT NULL PRIMARY KEY, title TEXT NOT NULL);"
                       "CREATE TABLE book_nocase(id TEXT NOT NULL COLLATE NOCASE PRIMARY KEY, title TEXT NOT NULL);",
                       NULL, NULL, NULL),
          db, "create");
    keys = malloc(sizeof(*keys) * ROWS);
    sqlite3_exec(db, "BEGIN", NULL, NULL, NULL);
    sqlite3_stmt *insert_binary, *insert_nocase;
    check(sqlite3_prepare_v2(db, "INSERT INTO book_binary VALUES (?, 'x')", -1, &insert_binary, NULL), db, "insert");
    check(sqlite3_prepare_v2(db, "INSERT INTO book_nocase VALUES (?, 'x')", -1, &insert_nocase, NULL), db, "insert");
    for (int i = 0; i < ROWS; i++) {
        uuid_text(keys[i], 0);  // lowercase, as Slate writes them since issue 36
        sqlite3_stmt *inserts[2] = {insert_binary, insert_nocase};
        for (int s = 0; s < 2; s++) {
            sqlite3_reset(inserts[s]);
            sqlite3_bind_text(inserts[s], 1, keys[i], 36, SQLITE_STATIC);
            check(sqlite3_step(inserts[s]), db, "insert row");
        }
    }
    sqlite3_finalize(insert_binary);
    sqlite3_finalize(insert_nocase);
    sqlite3_exec(db, "COMMIT", NULL, NULL, NULL);
    printf("SQLite %s, %d rows\n", sqlite3_libversion(), ROWS);
    run_case(db, "binary-exact", "SELECT rowid FROM book_binary WHERE id = ?", LOOKUPS, 0);
    run_case(db, "nocase-nocase", "SELECT rowid FROM book_nocase WHERE id = ? COLLATE NOCASE", LOOKUPS, 1);
    run_case(db, "binary-nocase", "SELECT rowid FROM book_binary WHERE id = ? COLLATE NOCASE", SCAN_LOOKUPS, 1);
    sqlite3_close(db);
    free(keys);
    return 0;
}
