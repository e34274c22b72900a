// The boundary between the C entry points (params decoding, validation,
// exports: optimized/*.cpp) and the per-target compute kernels
// (optimized/<target>/compute.cpp). A compute function is only ever called with
// arguments that passed every SPEC §3 check.
#pragma once

#include <cstdint>

namespace bng::opt {

// One validated call. Pointer element types follow the function's type
// combination (SPEC §1): fp: all float; hp: all half; mp: x/dy/dx half,
// statistics and parameter gradients float.
struct Args {
  const void* x;
  const void* dy;
  void* dx;
  const void* mean;
  const void* invar;
  const void* scale;
  void* dbias;
  void* dscale;
  std::int64_t batch;    // >= 1
  std::int64_t channel;  // >= 1; batch*channel and every byte size fit in ptrdiff_t
  int is_train;          // 0 or 1
  // _s: the valid, non-zero core mask (bits 0..7); _p: 0, meaning "the calling core alone".
  unsigned core_mask;
};

}  // namespace bng::opt

// The compute entry points of the target a library is built for, defined by
// optimized/<target>/compute.cpp for the kernels the target has in the
// registry (targets.inc): each library is built for one target, so the names
// are the same in all of them.
namespace bng::opt::target {
void compute_fp(const Args& a);
void compute_hp(const Args& a);
void compute_mp(const Args& a);
}  // namespace bng::opt::target
