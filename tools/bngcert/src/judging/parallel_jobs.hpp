// Running independent tasks on a few threads: the one pool behind every
// parallel loop of bngcert (a campaign's cases, a pack's cases, a dump's
// blocks of channels). Results never depend on the number of threads: each
// worker gathers into its own accumulator, and the caller merges them in an
// order of its own (tallies merge associatively, ties broken by case order).
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace bng::cert {

// Threads for --jobs 0: one per core (at least one).
int default_jobs();

// `jobs`, or default_jobs() for 0 or less.
inline int jobs_or_default(int jobs) {
  return jobs > 0 ? jobs : default_jobs();
}

// The threads run_jobs uses for `tasks` tasks on `jobs` threads: no more than
// there are tasks, and at least one.
inline int worker_count(int jobs, std::size_t tasks) {
  return static_cast<int>(
      std::clamp<std::size_t>(tasks, 1, static_cast<std::size_t>(std::max(jobs, 1))));
}

// task(worker, i) for every i in [0, tasks), each exactly once, on
// worker_count(jobs, tasks) threads (this one is worker 0): each free worker
// takes the next task from one counter. The first exception a task throws
// stops the handing out of tasks; it is rethrown here once every thread has
// finished.
template <class Task>
void run_jobs(int jobs, std::size_t tasks, Task&& task) {
  const int workers = worker_count(jobs, tasks);
  std::atomic<std::size_t> next{0};
  std::mutex error_mutex;
  std::exception_ptr error;
  auto work = [&](int worker) {
    try {
      for (std::size_t i; (i = next.fetch_add(1)) < tasks;) task(worker, i);
    } catch (...) {
      std::lock_guard lock(error_mutex);
      if (!error) error = std::current_exception();
      next = tasks;
    }
  };
  {
    std::vector<std::jthread> threads;
    for (int w = 1; w < workers; ++w) threads.emplace_back(work, w);
    work(0);
  }
  if (error) std::rethrow_exception(error);
}

}  // namespace bng::cert
