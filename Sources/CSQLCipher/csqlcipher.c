// A C target needs a source file. `swift build` compiles every target of the package, this one
// too when the trait is off, so it must not include SQLCipher's header: machines without
// libsqlcipher-dev build the default configuration.
typedef int slate_csqlcipher_unused;
