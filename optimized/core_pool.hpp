// The core pool: one persistent worker thread per core bit (created on first
// use, never per call). A call hands out the parts of one or more phases run
// one after the other; the calling thread takes the lowest core of the mask
// itself and claims parts too, so a one-core mask, or a call of one-part
// phases, never wakes a thread.
#pragma once

#include <cstdint>
#include <initializer_list>

namespace bng::opt::pool {

// A part body: run(ctx, part). Parts of one phase must be independent.
struct Phase {
  void (*run)(const void* ctx, int part);
  const void* ctx;
  int parts;
};

// The most phases one call of run takes.
inline constexpr int kMaxPhases = 3;

// Runs every part of each phase, in phase order, on the cores of `core_mask`
// (0: the caller alone) and returns when all are done: no part of a phase
// starts before every part of the phase before it has ended. One hand-out for
// all phases: the threads pass from one phase to the next at a barrier
// instead of being woken again for each. Each core of the mask first runs its
// own equal share of a phase's parts (the caller the first), for cache
// locality from phase to phase; parts a core has not started by then go to
// whichever is free, so which thread runs which part is not fixed: results
// must depend on the part index only. Safe to call concurrently from any
// number of threads; parts of different calls never wait on each other.
// Phases with no parts are skipped; more than kMaxPhases run as several jobs.
void run(unsigned core_mask, std::initializer_list<Phase> phases);

// A lambda (or any callable) as a part body. The phase refers to `body`,
// which must outlive the call of run.
template <class F>
Phase phase(int parts, const F& body) {
  return {[](const void* ctx, int part) { (*static_cast<const F*>(ctx))(part); }, &body, parts};
}

// Convenience: one phase.
template <class F>
void run_parts(unsigned core_mask, int parts, const F& body) {
  run(core_mask, {phase(parts, body)});
}

}  // namespace bng::opt::pool
