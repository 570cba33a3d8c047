#ifndef SLATE_CSQLCIPHER_H
#define SLATE_CSQLCIPHER_H

// Declares sqlite3_key, sqlite3_rekey and their _v2 forms.
#ifndef SQLITE_HAS_CODEC
#  define SQLITE_HAS_CODEC 1
#endif
// Debian, Ubuntu and Homebrew install SQLCipher's header as <sqlcipher/sqlite3.h> (pkg-config
// name `sqlcipher`). Elsewhere, put the directory that holds `sqlcipher/` on the include path.
#include <sqlcipher/sqlite3.h>

#endif
