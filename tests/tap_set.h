/* The setter check shared by the tests that build descriptors by hand:
 * SET(call) runs a library call and, if it fails, says why on a TAP
 * diagnostic line and clears setup_ok, so that the case fails instead of
 * silently testing a default. Header-only, after tap.h. */
#ifndef CLRS_TAP_SET_H
#define CLRS_TAP_SET_H

#include "clresample.h"
#include "tap.h"

static int setup_ok = 1;
#define SET(call)                                                            \
    do {                                                                     \
        clrs_status st_ = (call);                                            \
        if (st_ != CLRS_SUCCESS) {                                           \
            tap_diag("%s -> %s: %s", #call, clrs_status_name(st_),           \
                     clrs_last_error());                                     \
            setup_ok = 0;                                                    \
        }                                                                    \
    } while (0)

#endif /* CLRS_TAP_SET_H */
