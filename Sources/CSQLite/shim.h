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

#endif
