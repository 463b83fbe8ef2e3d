// Where this build of species comes from: the commit and the day it was
// built, which `make` passes as SPECIES_BUILD_COMMIT and SPECIES_BUILD_DATE
// (Makefile, BUILD_INFO). Empty when not known, as in a plain `swift build`.
#ifndef SPECIES_BUILD_INFO_H
#define SPECIES_BUILD_INFO_H

const char *species_build_commit(void);
const char *species_build_date(void);

#endif
