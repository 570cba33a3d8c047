// What a power loss undoes: the bytes each unsynced write replaced, per file, put back when the
// power is cut (see include/slate_fault_vfs.h).
#include "fault_vfs_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static path_record *find_record(slate_fault_vfs *vfs, const char *path) {
    for (path_record *record = vfs->records; record; record = record->next) {
        if (strcmp(record->path, path) == 0) return record;
    }
    return NULL;
}

static void free_record(path_record *record) {
    for (int i = 0; i < record->count; i++) free(record->entries[i].bytes);
    free(record->entries);
    free(record->path);
    free(record);
}

/// Forgets `path`'s unsynced writes: it was synced, or deleted.
void slate_fault_drop_record(slate_fault_vfs *vfs, const char *path) {
    path_record **link = &vfs->records;
    while (*link) {
        if (strcmp((*link)->path, path) == 0) {
            path_record *record = *link;
            *link = record->next;
            free_record(record);
            return;
        }
        link = &(*link)->next;
    }
}

/// Remembers what the write of `length` bytes at `offset` replaces in `file` (nothing beyond the
/// end of the file: the truncation to the synced size takes care of that). SQLITE_NOMEM or the
/// real file's error when the old bytes cannot be kept.
int slate_fault_remember(fault_file *file, sqlite3_int64 offset, sqlite3_int64 length) {
    if (file->path == NULL) return SQLITE_OK;
    slate_fault_vfs *vfs = file->vfs;
    sqlite3_int64 size = 0;
    int rc = file->real->pMethods->xFileSize(file->real, &size);
    if (rc != SQLITE_OK) return rc;
    path_record *record = find_record(vfs, file->path);
    if (record == NULL) {
        record = calloc(1, sizeof(path_record));
        if (record == NULL) return SQLITE_NOMEM;
        record->path = strdup(file->path);
        if (record->path == NULL) {
            free(record);
            return SQLITE_NOMEM;
        }
        record->synced_size = size;
        record->next = vfs->records;
        vfs->records = record;
    }
    sqlite3_int64 end = offset + length < size ? offset + length : size;
    if (end <= offset) return SQLITE_OK;
    if (end - offset > 0x7fffffff) return SQLITE_NOMEM;
    int count = (int)(end - offset);
    if (record->count == record->capacity) {
        int capacity = record->capacity ? record->capacity * 2 : 16;
        undo_entry *entries = realloc(record->entries, sizeof(undo_entry) * (size_t)capacity);
        if (entries == NULL) return SQLITE_NOMEM;
        record->entries = entries;
        record->capacity = capacity;
    }
    unsigned char *bytes = malloc((size_t)count);
    if (bytes == NULL) return SQLITE_NOMEM;
    rc = file->real->pMethods->xRead(file->real, bytes, count, offset);
    if (rc != SQLITE_OK) {
        free(bytes);
        return rc;
    }
    record->entries[record->count++] = (undo_entry){.offset = offset, .length = count, .bytes = bytes};
    record->unsynced_bytes += count;
    return SQLITE_OK;
}

/// Writes `length` bytes at `offset` of the file at `path`, past SQLite. 0 or errno.
static int write_at(int fd, const void *bytes, sqlite3_int64 length, sqlite3_int64 offset) {
    const unsigned char *cursor = bytes;
    while (length > 0) {
        ssize_t written = pwrite(fd, cursor, (size_t)length, (off_t)offset);
        if (written < 0) {
            if (errno == EINTR) continue;
            return errno;
        }
        cursor += written;
        length -= written;
        offset += written;
    }
    return 0;
}

/// Cuts the power: puts back what every unsynced write replaced, newest first, truncates each
/// file to its synced size, then lets the first `torn` bytes of `cut` (the write being cut, or
/// NULL) land. Called with the mutex held.
void slate_fault_cut_power(slate_fault_vfs *vfs, fault_file *cut, const void *cut_bytes, sqlite3_int64 cut_length,
                      sqlite3_int64 cut_offset, sqlite3_int64 torn) {
    vfs->powered_off = 1;
    vfs->generation += 1;
    while (vfs->records) {
        path_record *record = vfs->records;
        vfs->records = record->next;
        int fd = open(record->path, O_RDWR);
        if (fd >= 0) {
            for (int i = record->count - 1; i >= 0; i--) {
                int error = write_at(fd, record->entries[i].bytes, record->entries[i].length, record->entries[i].offset);
                if (error && vfs->undo_errno == 0) vfs->undo_errno = error;
            }
            if (ftruncate(fd, (off_t)record->synced_size) != 0 && vfs->undo_errno == 0) vfs->undo_errno = errno;
            close(fd);
        } else if (errno != ENOENT && vfs->undo_errno == 0) {
            vfs->undo_errno = errno;
        }
        free_record(record);
    }
    if (cut && cut->path && cut_bytes && torn > 0) {
        int fd = open(cut->path, O_RDWR);
        if (fd >= 0) {
            int error = write_at(fd, cut_bytes, torn < cut_length ? torn : cut_length, cut_offset);
            if (error && vfs->undo_errno == 0) vfs->undo_errno = error;
            close(fd);
        }
    }
}

void slate_fault_drop_all_records(slate_fault_vfs *vfs) {
    while (vfs->records) {
        path_record *record = vfs->records;
        vfs->records = record->next;
        free_record(record);
    }
}

int64_t slate_fault_unsynced_bytes(const slate_fault_vfs *vfs) {
    int64_t total = 0;
    for (path_record *record = vfs->records; record; record = record->next) total += record->unsynced_bytes;
    return total;
}
