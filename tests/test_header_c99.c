/* The public header compiles as strict C99 (-std=c99 -pedantic) on its
 * own, and the version macros agree with the library actually linked. */
#include <clresample.h>

#include "tap.h"

#include <string.h>

int main(void)
{
    tap_ok(clrs_version() == CLRS_VERSION,
           "clrs_version() %d == CLRS_VERSION %d", clrs_version(),
           CLRS_VERSION);
    tap_ok(strcmp(clrs_version_string(), CLRS_VERSION_STRING) == 0,
           "clrs_version_string() \"%s\"", clrs_version_string());
    tap_ok(CLRS_VERSION ==
               CLRS_VERSION_MAJOR * 10000 + CLRS_VERSION_MINOR * 100 +
                   CLRS_VERSION_PATCH,
           "CLRS_VERSION matches its parts");
    tap_ok(strcmp(clrs_status_name(CLRS_SUCCESS), "CLRS_SUCCESS") == 0,
           "status names link");
    return tap_done();
}
