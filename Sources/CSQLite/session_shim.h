#ifndef SLATE_CSQLITE_SESSION_SHIM_H
#define SLATE_CSQLITE_SESSION_SHIM_H

// The session extension (changesets and patchsets), included by shim.h after <sqlite3.h>.
//
// SQLite declares the extension only when SQLITE_ENABLE_SESSION (and SQLITE_ENABLE_PREUPDATE_HOOK)
// are defined before <sqlite3.h>: csqlite_system.h defines both, since the system libraries Slate
// links (Debian's libsqlite3 3.40.1, Apple's) are built with the extension. SQLCipher 3.4.1
// (Debian's libsqlcipher, SQLite 3.15.2) is built without it: its library has none of these
// functions. For that build the functions below stand in, with SQLite's names and signatures, so
// that Slate compiles unchanged; `slate_session_is_available()` is 0, and Slate's Swift wrapper
// checks it before calling any of them and throws a clear error instead. The stand-ins never
// touch their arguments: they report SQLITE_ERROR and leave every output empty.

/// Whether the library Slate links has the session extension (1) or not (0).
static inline int slate_session_is_available(void) {
#if defined(SQLITE_ENABLE_SESSION)
    return 1;
#else
    return 0;
#endif
}

#if !defined(SQLITE_ENABLE_SESSION)

typedef struct sqlite3_session sqlite3_session;
typedef struct sqlite3_changeset_iter sqlite3_changeset_iter;
typedef struct sqlite3_changegroup sqlite3_changegroup;

#  define SQLITE_CHANGESETSTART_INVERT 0x0002
#  define SQLITE_CHANGESETAPPLY_NOSAVEPOINT 0x0001
#  define SQLITE_CHANGESETAPPLY_INVERT 0x0002
#  define SQLITE_CHANGESET_DATA 1
#  define SQLITE_CHANGESET_NOTFOUND 2
#  define SQLITE_CHANGESET_CONFLICT 3
#  define SQLITE_CHANGESET_CONSTRAINT 4
#  define SQLITE_CHANGESET_FOREIGN_KEY 5
#  define SQLITE_CHANGESET_OMIT 0
#  define SQLITE_CHANGESET_REPLACE 1
#  define SQLITE_CHANGESET_ABORT 2

typedef int (*slate_changeset_input)(void *, void *, int *);
typedef int (*slate_changeset_output)(void *, const void *, int);
typedef int (*slate_changeset_filter)(void *, const char *);
typedef int (*slate_changeset_conflict)(void *, int, sqlite3_changeset_iter *);

static inline int sqlite3session_create(sqlite3 *db, const char *name, sqlite3_session **session) {
    (void)db; (void)name; *session = 0; return SQLITE_ERROR;
}
static inline void sqlite3session_delete(sqlite3_session *session) { (void)session; }
static inline int sqlite3session_enable(sqlite3_session *session, int enable) {
    (void)session; (void)enable; return 0;
}
static inline int sqlite3session_indirect(sqlite3_session *session, int indirect) {
    (void)session; (void)indirect; return 0;
}
static inline int sqlite3session_attach(sqlite3_session *session, const char *table) {
    (void)session; (void)table; return SQLITE_ERROR;
}
static inline void sqlite3session_table_filter(sqlite3_session *session, slate_changeset_filter filter, void *context) {
    (void)session; (void)filter; (void)context;
}
static inline int sqlite3session_changeset(sqlite3_session *session, int *size, void **bytes) {
    (void)session; *size = 0; *bytes = 0; return SQLITE_ERROR;
}
static inline int sqlite3session_patchset(sqlite3_session *session, int *size, void **bytes) {
    (void)session; *size = 0; *bytes = 0; return SQLITE_ERROR;
}
static inline int sqlite3session_changeset_strm(sqlite3_session *session, slate_changeset_output output, void *context) {
    (void)session; (void)output; (void)context; return SQLITE_ERROR;
}
static inline int sqlite3session_patchset_strm(sqlite3_session *session, slate_changeset_output output, void *context) {
    (void)session; (void)output; (void)context; return SQLITE_ERROR;
}
static inline int sqlite3session_isempty(sqlite3_session *session) { (void)session; return 1; }
static inline int sqlite3session_diff(sqlite3_session *session, const char *from, const char *table, char **message) {
    (void)session; (void)from; (void)table; *message = 0; return SQLITE_ERROR;
}
static inline int sqlite3changeset_start_v2(sqlite3_changeset_iter **iterator, int size, void *bytes, int flags) {
    (void)size; (void)bytes; (void)flags; *iterator = 0; return SQLITE_ERROR;
}
static inline int sqlite3changeset_start_v2_strm(sqlite3_changeset_iter **iterator, slate_changeset_input input, void *context, int flags) {
    (void)input; (void)context; (void)flags; *iterator = 0; return SQLITE_ERROR;
}
static inline int sqlite3changeset_next(sqlite3_changeset_iter *iterator) { (void)iterator; return SQLITE_ERROR; }
static inline int sqlite3changeset_op(sqlite3_changeset_iter *iterator, const char **table, int *columns, int *operation, int *indirect) {
    (void)iterator; *table = 0; *columns = 0; *operation = 0; *indirect = 0; return SQLITE_ERROR;
}
static inline int sqlite3changeset_pk(sqlite3_changeset_iter *iterator, unsigned char **flags, int *columns) {
    (void)iterator; *flags = 0; *columns = 0; return SQLITE_ERROR;
}
static inline int sqlite3changeset_old(sqlite3_changeset_iter *iterator, int column, sqlite3_value **value) {
    (void)iterator; (void)column; *value = 0; return SQLITE_ERROR;
}
static inline int sqlite3changeset_new(sqlite3_changeset_iter *iterator, int column, sqlite3_value **value) {
    (void)iterator; (void)column; *value = 0; return SQLITE_ERROR;
}
static inline int sqlite3changeset_conflict(sqlite3_changeset_iter *iterator, int column, sqlite3_value **value) {
    (void)iterator; (void)column; *value = 0; return SQLITE_ERROR;
}
static inline int sqlite3changeset_fk_conflicts(sqlite3_changeset_iter *iterator, int *count) {
    (void)iterator; *count = 0; return SQLITE_ERROR;
}
static inline int sqlite3changeset_finalize(sqlite3_changeset_iter *iterator) { (void)iterator; return SQLITE_OK; }
static inline int sqlite3changeset_invert(int size, const void *bytes, int *outSize, void **out) {
    (void)size; (void)bytes; *outSize = 0; *out = 0; return SQLITE_ERROR;
}
static inline int sqlite3changeset_invert_strm(slate_changeset_input input, void *inContext, slate_changeset_output output, void *outContext) {
    (void)input; (void)inContext; (void)output; (void)outContext; return SQLITE_ERROR;
}
static inline int sqlite3changegroup_new(sqlite3_changegroup **group) { *group = 0; return SQLITE_ERROR; }
static inline int sqlite3changegroup_add(sqlite3_changegroup *group, int size, void *bytes) {
    (void)group; (void)size; (void)bytes; return SQLITE_ERROR;
}
static inline int sqlite3changegroup_add_strm(sqlite3_changegroup *group, slate_changeset_input input, void *context) {
    (void)group; (void)input; (void)context; return SQLITE_ERROR;
}
static inline int sqlite3changegroup_output(sqlite3_changegroup *group, int *size, void **bytes) {
    (void)group; *size = 0; *bytes = 0; return SQLITE_ERROR;
}
static inline int sqlite3changegroup_output_strm(sqlite3_changegroup *group, slate_changeset_output output, void *context) {
    (void)group; (void)output; (void)context; return SQLITE_ERROR;
}
static inline void sqlite3changegroup_delete(sqlite3_changegroup *group) { (void)group; }
static inline int sqlite3changeset_apply_v2(sqlite3 *db, int size, void *bytes, slate_changeset_filter filter,
                                            slate_changeset_conflict conflict, void *context, void **rebase,
                                            int *rebaseSize, int flags) {
    (void)db; (void)size; (void)bytes; (void)filter; (void)conflict; (void)context; (void)flags;
    if (rebase) *rebase = 0;
    if (rebaseSize) *rebaseSize = 0;
    return SQLITE_ERROR;
}
static inline int sqlite3changeset_apply_v2_strm(sqlite3 *db, slate_changeset_input input, void *inContext,
                                                 slate_changeset_filter filter, slate_changeset_conflict conflict,
                                                 void *context, void **rebase, int *rebaseSize, int flags) {
    (void)db; (void)input; (void)inContext; (void)filter; (void)conflict; (void)context; (void)flags;
    if (rebase) *rebase = 0;
    if (rebaseSize) *rebaseSize = 0;
    return SQLITE_ERROR;
}

#endif  // !defined(SQLITE_ENABLE_SESSION)

#endif
