/*
 * A board with a lane bug, for the round-trip tests: included into
 * tools/harness/bng_harness.c through -DBNG_HARNESS_HOOKS (its extension point
 * after each call), it raises every dx whose flat index is 5 modulo 32 (vector
 * lane 5 of MT7004's 32 binary32 lanes wherever rows fill whole vectors) by 4
 * units in the last place, as a miscomputing lane would. Production builds of
 * the harness never include it.
 */
#include <string.h>

#define FAULT_LANES 32
#define FAULT_LANE 5

static void raise_lane_by_four_ulp(const struct bng_harness_call* call) {
  const size_t elements = (size_t)call->batch * (size_t)call->channel;
  size_t i;
  if (call->status != 0) return;
  for (i = FAULT_LANE; i < elements; i += FAULT_LANES) {
    if (call->half_data) {
      unsigned short bits;
      memcpy(&bits, (unsigned char*)call->dx + 2 * i, 2);
      if ((bits & 0x7c00u) != 0x7c00u) bits = (unsigned short)(bits + 4u);
      memcpy((unsigned char*)call->dx + 2 * i, &bits, 2);
    } else {
      unsigned long bits = 0;
      unsigned int b32;
      memcpy(&b32, (unsigned char*)call->dx + 4 * i, 4);
      bits = b32;
      if ((bits & 0x7f800000ul) != 0x7f800000ul) b32 = (unsigned int)(bits + 4u);
      memcpy((unsigned char*)call->dx + 4 * i, &b32, 4);
    }
  }
}

#define BNG_HARNESS_AFTER_CALL(call) raise_lane_by_four_ulp(call)
