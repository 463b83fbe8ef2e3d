#include "BuildInfo.h"

#ifndef SPECIES_BUILD_COMMIT
#define SPECIES_BUILD_COMMIT ""
#endif
#ifndef SPECIES_BUILD_DATE
#define SPECIES_BUILD_DATE ""
#endif

const char *species_build_commit(void) { return SPECIES_BUILD_COMMIT; }
const char *species_build_date(void) { return SPECIES_BUILD_DATE; }
