/* What the lowering knows of a device: its description and the facts
 * launch defaults are made of, queried once per context (context.c) and
 * only read from then on. The lowering and the launch space take this,
 * never the context. */
#ifndef CLRS_DEVICE_H
#define CLRS_DEVICE_H

#include "model/internal.h"

/* Element kinds of a kernel's vectors, indexing the width arrays. */
enum {
    CLRS_LANE_CHAR,
    CLRS_LANE_SHORT,
    CLRS_LANE_INT,
    CLRS_LANE_LONG,
    CLRS_LANE_FLOAT,
    CLRS_LANE_DOUBLE,
    CLRS_LANE_KINDS
};

typedef struct clrs_launch_facts {
    cl_device_type type;
    cl_uint pref_float, pref_double; /* CL_DEVICE_PREFERRED_VECTOR_WIDTH_* */
    /* CL_DEVICE_PREFERRED_ and CL_DEVICE_NATIVE_VECTOR_WIDTH_{CHAR,
     * SHORT, INT, LONG, FLOAT, DOUBLE}, by CLRS_LANE_*; 0 where the
     * device does not say (double without fp64). */
    cl_uint pref[CLRS_LANE_KINDS];
    cl_uint native[CLRS_LANE_KINDS];
    size_t max_group;        /* CL_DEVICE_MAX_WORK_GROUP_SIZE */
    size_t max_items[3];     /* CL_DEVICE_MAX_WORK_ITEM_SIZES */
    cl_uint base_align_bits; /* CL_DEVICE_MEM_BASE_ADDR_ALIGN */
    /* Optional: 0 where the driver does not answer. */
    cl_uint vendor_id; /* CL_DEVICE_VENDOR_ID (PCI: 0x10de NVIDIA, ...) */
    /* The SIMD width the device schedules work-items in, from the vendor
     * extension its CL_DEVICE_EXTENSIONS lists: NVIDIA's warp
     * (CL_DEVICE_WARP_SIZE_NV), AMD's wavefront
     * (CL_DEVICE_WAVEFRONT_WIDTH_AMD), the largest of Intel's sub-group
     * sizes (CL_DEVICE_SUB_GROUP_SIZES_INTEL). */
    cl_uint simd;
} clrs_launch_facts;

typedef struct clrs_device {
    clrs_device_info info;
    clrs_launch_facts facts;
    /* From the environment, read with the rest of it when the context is
     * created (context.c): */
    int generic; /* CLRS_GENERIC set and not "0" */
    int fp16;    /* CLRS_FP16: 1 "native", -1 "storage", 0 otherwise */
} clrs_device;

#endif /* CLRS_DEVICE_H */
