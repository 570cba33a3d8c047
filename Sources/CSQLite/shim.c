// A C target needs a source file. Compiling the header here also checks, at build time, that the
// trait's define and the include path agree (see shim.h).
#include "shim.h"
