#ifndef SLATE_CSQLITE_SYSTEM_H
#define SLATE_CSQLITE_SYSTEM_H

// Expose the sqlite3_preupdate_* and session extension (sqlite3session_*, sqlite3changeset_*,
// sqlite3changegroup_*) declarations: Debian's and Apple's builds of SQLite have both compiled in,
// but <sqlite3.h> declares them only under these macros.
#ifndef SQLITE_ENABLE_PREUPDATE_HOOK
#  define SQLITE_ENABLE_PREUPDATE_HOOK 1
#endif
#ifndef SQLITE_ENABLE_SESSION
#  define SQLITE_ENABLE_SESSION 1
#endif
#include <sqlite3.h>

#endif
