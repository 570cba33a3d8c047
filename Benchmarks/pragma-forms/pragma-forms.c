// What each form of SQLite's schema queries costs, in instructions, on the 50 tables of
// `schema-check-50` (issue 30): the statement form of a pragma prepared per read, its table-valued
// form prepared once and reused, and the look-ups in `sqlite_schema`. Plain C API, no Slate.
//
//     cc -O2 pragma-forms.c -lsqlite3 -o /tmp/pragma-forms
//     for v in 1 2 3 4 5 6 7 8 9 10 11 12 13 14; do
//       valgrind --tool=callgrind --callgrind-out-file=/tmp/pf.$v --toggle-collect=run_form /tmp/pragma-forms $v >/dev/null 2>&1
//       echo "$v $(callgrind_annotate /tmp/pf.$v | grep -m1 'PROGRAM TOTALS')"
//     done
//
// Each form runs over the 50 tables three times (the first pass prepares the kept statements);
// callgrind counts the three passes, so a figure divided by 150 is one read. Run from this folder
// (it reads ../Sources/slate-bench/Schema/checked_tables.sql).
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>

static sqlite3 *db;
static char names[50][32];
static long sink;

static void drain(sqlite3_stmt *statement) {
    int count = sqlite3_column_count(statement);
    while (sqlite3_step(statement) == SQLITE_ROW) {
        for (int i = 0; i < count; i++) {
            const unsigned char *text = sqlite3_column_text(statement, i);
            if (text) sink += text[0];
        }
    }
}

/// Prepares `sql`, reads its rows, finalizes it.
static void once(const char *sql) {
    sqlite3_stmt *statement;
    if (sqlite3_prepare_v2(db, sql, -1, &statement, 0) != SQLITE_OK) {
        fprintf(stderr, "%s: %s\n", sql, sqlite3_errmsg(db));
        exit(1);
    }
    drain(statement);
    sqlite3_finalize(statement);
}

static sqlite3_stmt *kept[8];

/// Reads the rows of the statement kept in slot `slot` (prepared the first time), with `first`
/// and `second` (NULL when absent) bound.
static void reuse(int slot, const char *sql, const char *first, const char *second) {
    if (!kept[slot] && sqlite3_prepare_v3(db, sql, -1, SQLITE_PREPARE_PERSISTENT, &kept[slot], 0) != SQLITE_OK) {
        fprintf(stderr, "%s: %s\n", sql, sqlite3_errmsg(db));
        exit(1);
    }
    sqlite3_bind_text(kept[slot], 1, first, -1, SQLITE_TRANSIENT);
    if (sqlite3_bind_parameter_count(kept[slot]) > 1) sqlite3_bind_text(kept[slot], 2, second, -1, SQLITE_TRANSIENT);
    drain(kept[slot]);
    sqlite3_reset(kept[slot]);
}

__attribute__((noinline)) void run_form(int form) {
    char sql[256];
    for (int t = 0; t < 50; t++) {
        const char *name = names[t];
        char index[64];
        snprintf(index, sizeof index, "%s_by_name", name);
        switch (form) {
        case 1: snprintf(sql, sizeof sql, "PRAGMA \"main\".table_xinfo(\"%s\")", name); once(sql); break;
        case 2: snprintf(sql, sizeof sql, "SELECT * FROM pragma_table_xinfo('%s')", name); once(sql); break;
        case 3: reuse(0, "SELECT * FROM pragma_table_xinfo(?1, ?2)", name, "main"); break;
        case 4: snprintf(sql, sizeof sql, "PRAGMA \"main\".index_list(\"%s\")", name); once(sql); break;
        case 5: reuse(1, "SELECT * FROM pragma_index_list(?1, ?2)", name, "main"); break;
        case 6: snprintf(sql, sizeof sql, "PRAGMA \"main\".index_info(\"%s\")", index); once(sql); break;
        case 7: reuse(2, "SELECT * FROM pragma_index_info(?1, ?2)", index, "main"); break;
        case 8: snprintf(sql, sizeof sql, "PRAGMA \"main\".table_list(\"%s\")", name); once(sql); break;
        case 9:
            snprintf(sql, sizeof sql,
                "SELECT type, name, sql FROM \"main\".sqlite_master WHERE type IN ('table', 'view') AND name = '%s' COLLATE NOCASE",
                name);
            once(sql);
            break;
        case 10:
            reuse(3, "SELECT type, name, sql FROM \"main\".sqlite_master WHERE type IN ('table', 'view') AND name = ? COLLATE NOCASE",
                name, 0);
            break;
        case 11:
            snprintf(sql, sizeof sql, "SELECT sql FROM \"main\".sqlite_master WHERE type = 'index' AND name = '%s'", index);
            once(sql);
            break;
        case 12: reuse(4, "SELECT sql FROM \"main\".sqlite_master WHERE type = 'index' AND name = ?", index, 0); break;
        case 13:
            reuse(5, "SELECT name, sql FROM \"main\".sqlite_master WHERE type = 'index' AND tbl_name = ? COLLATE NOCASE AND sql IS NOT NULL",
                name, 0);
            break;
        case 14:
            reuse(6, "SELECT name, sql FROM \"main\".sqlite_master WHERE tbl_name = ? AND type = 'index' AND sql IS NOT NULL",
                name, 0);
            break;
        }
    }
}

int main(int argc, char **argv) {
    if (argc < 2) return 2;
    sqlite3_open(":memory:", &db);
    FILE *file = fopen("../Sources/slate-bench/Schema/checked_tables.sql", "r");
    if (!file) return 1;
    static char script[1 << 20];
    size_t length = fread(script, 1, sizeof script - 1, file);
    script[length] = 0;
    fclose(file);
    char *error = 0;
    if (sqlite3_exec(db, script, 0, 0, &error) != SQLITE_OK) {
        fprintf(stderr, "%s\n", error);
        return 1;
    }
    for (int t = 0; t < 50; t++) snprintf(names[t], sizeof names[t], "checked_%02d", t + 1);
    int form = atoi(argv[1]);
    run_form(form);
    run_form(form);
    run_form(form);
    printf("%ld\n", sink);
    return 0;
}
