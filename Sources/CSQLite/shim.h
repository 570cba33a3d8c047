#ifndef SLATE_CSQLITE_SHIM_H
#define SLATE_CSQLITE_SHIM_H

// Which library Slate talks to is decided by the package trait `SQLCipher`:
//
// - Without it (the default), CSQLite depends on CSQLiteSystem alone: <csqlite_system.h> includes
//   the system's <sqlite3.h>, and that module's `link "sqlite3"` links the system SQLite.
// - With it, CSQLite also depends on CSQLCipher, whose include directory then is on the search
//   path: <csqlcipher.h> defines SQLITE_HAS_CODEC and includes <sqlcipher/sqlite3.h>, and that
//   module links libsqlcipher. CSQLiteSystem's header is then never included, so its module is
//   never imported and SQLite itself is not linked: one process never has both libraries.
//
// The choice travels with the include path, so every target that imports CSQLite (Slate, the
// tests, generated raw-style code, users' own targets) sees the same header. The manifest also
// defines SLATE_SQLCIPHER for the package's own targets with the trait, which keeps the clang
// module caches of the two configurations apart; it must agree with the include path.
#if __has_include(<csqlcipher.h>)
#  include <csqlcipher.h>
#else
#  if defined(SLATE_SQLCIPHER)
#    error "SLATE_SQLCIPHER is defined but <csqlcipher.h> is not on the include path: the SQLCipher trait is half applied (clean the build folder)"
#  endif
#  include <csqlite_system.h>
#endif

// The session extension, or stand-ins when the library lacks it (SQLCipher).
#include "session_shim.h"

/// Whether the header Slate was compiled against is SQLCipher's (1) or SQLite's (0).
static inline int slate_sqlite_has_codec(void) {
#if defined(SQLITE_HAS_CODEC)
    return 1;
#else
    return 0;
#endif
}

/// How many times SQLite re-prepared `statement` after a schema change
/// (`SQLITE_STMTSTATUS_REPREPARE`, 3.20.0), or -1 when the library cannot say (SQLCipher's
/// SQLite 3.15.2): the caller then compares the result columns instead.
static inline int slate_reprepare_count(sqlite3_stmt *statement) {
#if SQLITE_VERSION_NUMBER >= 3020000
    return sqlite3_stmt_status(statement, SQLITE_STMTSTATUS_REPREPARE, 0);
#else
    (void)statement;
    return -1;
#endif
}

/// Whether `statement` is an EXPLAIN (1) or EXPLAIN QUERY PLAN (2) statement, 0 when it is
/// neither (`sqlite3_stmt_isexplain`, 3.28.0), or -1 when the library cannot say (SQLCipher's
/// SQLite 3.15.2): the caller then reads the statement's SQL with Slate's lexer
/// (`SQLLexer.isExplain`).
static inline int slate_stmt_isexplain(sqlite3_stmt *statement) {
#if SQLITE_VERSION_NUMBER >= 3028000
    return sqlite3_stmt_isexplain(statement);
#else
    (void)statement;
    return -1;
#endif
}

// MARK: - Stand-ins for APIs newer than an old header
//
// SQLCipher 3.4.1 (Debian's libsqlcipher-dev) is built on SQLite 3.15.2. Slate's Swift code calls a
// few functions added later; against such a header they are defined here, with the same name and
// signature, on top of older calls. Against a current header none of this is compiled, so the
// default build calls SQLite's own functions. Any other `sqlite3_*` function newer than 3.15.2 that
// Slate starts calling needs a stand-in here, or the SQLCipher build fails to compile.

#if SQLITE_VERSION_NUMBER < 3020000
/// sqlite3_prepare_v3 (3.20.0). The only flag Slate passes is a hint that older libraries do
/// not take; SQLITE_PREPARE_PERSISTENT has the value SQLite gives it.
#  ifndef SQLITE_PREPARE_PERSISTENT
#    define SQLITE_PREPARE_PERSISTENT 0x01
#  endif
static inline int sqlite3_prepare_v3(sqlite3 *db, const char *sql, int bytes, unsigned int flags,
                                     sqlite3_stmt **statement, const char **tail) {
    (void)flags;
    return sqlite3_prepare_v2(db, sql, bytes, statement, tail);
}
#endif

#if SQLITE_VERSION_NUMBER < 3037000
/// sqlite3_changes64 and sqlite3_total_changes64 (3.37.0): the 32-bit counters, widened.
static inline sqlite3_int64 sqlite3_changes64(sqlite3 *db) {
    return sqlite3_changes(db);
}
static inline sqlite3_int64 sqlite3_total_changes64(sqlite3 *db) {
    return sqlite3_total_changes(db);
}
#endif

#if SQLITE_VERSION_NUMBER < 3038000
/// sqlite3_error_offset (3.38.0): the byte offset of the most recent error in the SQL, or -1.
/// Older libraries cannot say where a statement failed, so the answer is always "unknown".
static inline int sqlite3_error_offset(sqlite3 *db) {
    (void)db;
    return -1;
}
#endif


/// `SQLITE_TRANSIENT` is a macro Swift cannot import: SQLite copies the bytes before returning.
static inline sqlite3_destructor_type slate_sqlite_transient(void) {
    return SQLITE_TRANSIENT;
}

/// `SQLITE_STATIC`: the caller guarantees the bytes outlive the binding.
static inline sqlite3_destructor_type slate_sqlite_static(void) {
    return SQLITE_STATIC;
}

/// Turns off SQLite's legacy "double-quoted string literal" misfeature for DML and DDL, so that a
/// misspelled `"column"` is an error instead of the text 'column'. `sqlite3_db_config` is variadic,
/// which Swift cannot call. Returns SQLITE_OK, or the error; libraries older than 3.29 lack the
/// option and keep the misfeature.
static inline int slate_disable_double_quoted_strings(sqlite3 *db) {
#ifdef SQLITE_DBCONFIG_DQS_DML
    int rc = sqlite3_db_config(db, SQLITE_DBCONFIG_DQS_DML, 0, (int *)0);
    if (rc != SQLITE_OK) return rc;
    return sqlite3_db_config(db, SQLITE_DBCONFIG_DQS_DDL, 0, (int *)0);
#else
    (void)db;
    return SQLITE_OK;
#endif
}

/// Turns SQLite's double-quoted string literals on (`enabled` 1) or off (0) for DML and DDL on a
/// connection, for the statements prepared afterwards. `slate generate` reads schema files the way
/// the sqlite3 shell does, turning them on for a statement that needs them (and warning). Returns
/// SQLITE_OK, or the error; libraries older than 3.29 lack the option and always accept them.
static inline int slate_set_double_quoted_strings(sqlite3 *db, int enabled) {
#ifdef SQLITE_DBCONFIG_DQS_DML
    int rc = sqlite3_db_config(db, SQLITE_DBCONFIG_DQS_DML, enabled, (int *)0);
    if (rc != SQLITE_OK) return rc;
    return sqlite3_db_config(db, SQLITE_DBCONFIG_DQS_DDL, enabled, (int *)0);
#else
    (void)db;
    (void)enabled;
    return SQLITE_OK;
#endif
}

// MARK: - Numbers for the query builder's statement levels
//
// Each statement level of the query builder (a select, an update, a delete) qualifies its tables'
// columns with a number no other level has, so that a correlated subquery naming the same table as
// its outer query gets an alias of its own when the statement is written (`SQLScope`). Defined in
// shim.c: one atomic counter for the whole process.

/// A number greater than every number returned before in the process.
#include <stdint.h>

uint64_t slate_next_query_scope(void);

#endif
