#ifndef SLATE_CSQLITE_SYSTEM_H
#define SLATE_CSQLITE_SYSTEM_H

// Expose sqlite3_preupdate_* declarations; Debian's and Apple's builds enable the hook.
#define SQLITE_ENABLE_PREUPDATE_HOOK 1
#include <sqlite3.h>

#endif
