// A C target needs a source file; this one has nothing to compile.
typedef int slate_csqlite_system_unused;
