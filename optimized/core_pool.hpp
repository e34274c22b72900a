// The core pool: one persistent worker thread per core bit (created on first
// use, never per call). A call hands out the parts of one phase; the calling
// thread takes the lowest core of the mask itself and claims parts too, so a
// one-core mask, or a one-part phase, never wakes a thread.
#pragma once

#include <cstdint>

namespace bng::opt::pool {

// A part body: run(ctx, part). Parts of one phase must be independent.
struct Phase {
  void (*run)(const void* ctx, int part);
  const void* ctx;
  int parts;
};

// Runs every part of `phase` on the cores of `core_mask` (0: the caller alone)
// and returns when all are done. Each core of the mask first runs its own
// equal share of the parts (the caller the first), for cache locality from
// phase to phase; parts a core has not started by then go to whichever is
// free, so which thread runs which part is not fixed: results must depend on
// the part index only. Safe to call concurrently from
// any number of threads; parts of different calls never wait on each other.
void run(unsigned core_mask, const Phase& phase);

// Convenience: a lambda (or any callable) as the part body.
template <class F>
void run_parts(unsigned core_mask, int parts, const F& body) {
  const Phase phase{[](const void* ctx, int part) { (*static_cast<const F*>(ctx))(part); }, &body,
                    parts};
  run(core_mask, phase);
}

}  // namespace bng::opt::pool
