#ifndef SLATE_CSQLITE_SHIM_H
#define SLATE_CSQLITE_SHIM_H

// Expose sqlite3_preupdate_* declarations; Debian's and Apple's builds enable the hook.
#define SQLITE_ENABLE_PREUPDATE_HOOK 1
#include <sqlite3.h>

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

#endif
