/* The tables stage: the lowering's table layout filled from the taps,
 * in the integer and float widths the kernel reads. */
#ifndef CLRS_TABLES_H
#define CLRS_TABLES_H

#include "gen/lower.h"

/* Host images of the two table buffers: itab (int32, or int64 with
 * long offsets) and ftab (float, or double with a double accumulator;
 * NULL for max pooling). */
typedef struct clrs_table_images {
    void *i, *f;
    size_t ibytes, fbytes;
} clrs_table_images;

clrs_status clrs__tables_fill(const clrs_problem *p, const clrs_slot_taps *st,
                              const clrs_lowered *low, clrs_table_images *img);
void clrs__table_images_free(clrs_table_images *img);

#endif /* CLRS_TABLES_H */
