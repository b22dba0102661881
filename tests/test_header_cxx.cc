// The public header compiles as C++ and its symbols link with C linkage
// (extern "C" guards).
#include <clresample.h>

#include <cstdio>
#include <cstring>

int main()
{
    int n = 0, failed = 0;
    clrs_tensor_desc *t = nullptr;
    const int64_t dims[2] = {3, 4};
    bool ok = clrs_tensor_desc_create(&t, CLRS_F32, 2, dims, nullptr) ==
              CLRS_SUCCESS;
    std::printf("%s %d - create a tensor descriptor from C++\n",
                ok ? "ok" : "not ok", ++n);
    failed += !ok;
    ok = clrs_tensor_desc_elements(t) == 12;
    std::printf("%s %d - element count 12 from C++\n", ok ? "ok" : "not ok",
                ++n);
    failed += !ok;
    clrs_tensor_desc_destroy(t);
    ok = std::strcmp(clrs_status_name(CLRS_ERR_BAD_RANK),
                     "CLRS_ERR_BAD_RANK") == 0;
    std::printf("%s %d - status name from C++\n", ok ? "ok" : "not ok", ++n);
    failed += !ok;
    std::printf("1..%d\n", n);
    return failed ? 1 : 0;
}
