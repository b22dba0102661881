/* The tuner (tune.c): a plan's launch chosen by timing candidates. */
#ifndef CLRS_TUNE_H
#define CLRS_TUNE_H

#include "rt/plan.h"
#include "rt/tunedb.h"

/* Builds plan under each candidate launch in turn while the budget (ms)
 * lasts (the first, the device's defaults, whatever the budget), times
 * each distinct launch, adopts the fastest as plan's kernel and stores
 * it under k in the tuning database. */
clrs_status clrs__tune(clrs_plan *plan, const clrs_tune_key *k,
                       double budget);

/* Moves cand's kernel and everything built for it into plan. */
void clrs__plan_adopt(clrs_plan *plan, clrs_plan *cand);

/* The best wall time in ms of a few runs of plan, every kernel it
 * enqueues, on scratch buffers of its own (after a warm-up). */
clrs_status clrs__tune_wall(clrs_plan *plan, double *ms);

#endif /* CLRS_TUNE_H */
