// bng_status_string: the one non-kernel export of both libraries.
#include "batchnormgrad.h"

extern "C" const char* bng_status_string(int status) {
  // String literals: static storage, nothing shared is mutated, so the
  // function is safe to call from any thread.
  switch (status) {
    case BNG_OK:
      return "success";
    case BNG_ERR_NULL:
      return "a required pointer (params, x, dy, dx, mean, invar, scale, dbias or dscale) is null";
    case BNG_ERR_SHAPE:
      return "invalid shape: batch or channel is below 1, or a tensor's size or address range "
             "does not fit in memory";
    case BNG_ERR_FLAG:
      return "is_train is neither 0 nor 1";
    case BNG_ERR_CORE_MASK:
      return "invalid core mask: no core selected, or a core at or above 8 selected";
    case BNG_ERR_OVERLAP:
      return "an output buffer overlaps an input or another output (only dx == x or dx == dy "
             "is allowed)";
    case BNG_ERR_ALIGN:
      return "a pointer is not aligned to its element type (params to long long)";
    default:
      return "unknown status code (not one this library returns)";
  }
}
