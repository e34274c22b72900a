#include "core_pool.hpp"

#include <algorithm>
#include <atomic>
#include <bit>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <system_error>
#include <thread>

namespace bng::opt::pool {
namespace {

constexpr int kMaxCores = 8;

// How long an idle worker polls for the next job before it sleeps. A call
// posts up to three phases in a row (reduce, combine, apply) and a training
// loop calls again soon after; waking a sleeping thread costs tens of
// microseconds on the project's virtual machine, more than a whole phase of a
// cache-resident call (docs/performance.md). Polling this long after each job
// costs at most this much of an otherwise idle core - the same trade as
// OpenMP runtimes' spin-then-sleep.
constexpr auto kPollBeforeSleep = std::chrono::microseconds(200);

inline void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#endif
}

// Polls ready() for up to kPollBeforeSleep; true as soon as it holds, false
// when the time is up (the caller then sleeps until notified).
template <class Ready>
bool poll_before_sleep(const Ready& ready) {
  const auto until = std::chrono::steady_clock::now() + kPollBeforeSleep;
  while (!ready()) {
    for (int k = 0; k < 64; ++k) cpu_relax();
    if (std::chrono::steady_clock::now() >= until) return false;
  }
  return true;
}

// One phase in flight. Shared by the caller and the workers it notified; a
// worker that dequeues it after the caller returned finds no part left and
// never touches phase.ctx (which lives on the caller's stack).
//
// Member i (the caller is 0, then the workers in core order) owns the i-th of
// `members` equal ranges of parts and runs it first, in order, before taking
// parts left in the others' ranges. So with the same mask and shape the same
// core runs the same part in every phase and every call - part r of pass 1
// and of pass 2 cover the same rows - and finds that part's data in its own
// cache instead of pulling the lines from the other core's (dynamic claiming
// made 256x1024 inference slower on two cores than on one). A late or
// descheduled worker still costs nothing: the others take its parts.
struct Job {
  struct alignas(64) Range {  // one cache line each: members claim concurrently
    std::atomic<int> next{0};
    int end = 0;
  };
  Phase phase{};
  int members = 1;
  Range ranges[kMaxCores];
  std::atomic<int> done{0};

  Job(const Phase& p, int m) : phase(p), members(m) {
    for (int i = 0; i < m; ++i) {
      ranges[i].next.store(p.parts * i / m, std::memory_order_relaxed);
      ranges[i].end = p.parts * (i + 1) / m;
    }
  }

  // Runs parts until none is left: member's own range, then the others'.
  void work(int member) {
    for (int k = 0; k < members; ++k) {
      Range& r = ranges[(member + k) % members];
      for (int p = r.next.fetch_add(1, std::memory_order_relaxed); p < r.end;
           p = r.next.fetch_add(1, std::memory_order_relaxed)) {
        phase.run(phase.ctx, p);
        if (done.fetch_add(1, std::memory_order_acq_rel) + 1 == phase.parts) done.notify_all();
      }
    }
  }
};

class Worker {
 public:
  void post(std::shared_ptr<Job> job, int member) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      queue_.push_back({std::move(job), member});
      pending_.store(true, std::memory_order_release);
      if (!started_) {
        // Detached: the pool lives as long as the process (see pool()). If no
        // thread can be made, the caller still runs every part itself (it
        // claims parts until none is left), so the call completes; the next
        // call tries again.
        try {
          std::thread([this] { loop(); }).detach();
          started_ = true;
        } catch (const std::system_error&) {
          queue_.clear();
        }
      }
    }
    ready_.notify_one();
  }

 private:
  void loop() {
    for (;;) {
      // The next phase usually comes within microseconds (kPollBeforeSleep).
      poll_before_sleep([this] { return pending_.load(std::memory_order_acquire); });
      Posted posted;
      {
        std::unique_lock<std::mutex> lock(mutex_);
        ready_.wait(lock, [this] { return !queue_.empty(); });
        posted = std::move(queue_.front());
        queue_.pop_front();
        pending_.store(!queue_.empty(), std::memory_order_relaxed);
      }
      posted.job->work(posted.member);
    }
  }

  std::mutex mutex_;
  std::condition_variable ready_;
  struct Posted {
    std::shared_ptr<Job> job;
    int member = 0;
  };
  std::deque<Posted> queue_;
  std::atomic<bool> pending_{false};  // queue_ is not empty (set under mutex_)
  bool started_ = false;
};

// Never destroyed: worker threads may still be blocked in wait() at exit, and
// destroying their mutexes under them would be undefined.
Worker* pool() {
  static Worker* const workers = new Worker[kMaxCores];
  return workers;
}

}  // namespace

void run(unsigned core_mask, const Phase& phase) {
  if (phase.parts <= 0) return;
  const unsigned mask = core_mask & ((1u << kMaxCores) - 1);
  if (phase.parts == 1 || std::popcount(mask) <= 1) {
    for (int p = 0; p < phase.parts; ++p) phase.run(phase.ctx, p);
    return;
  }
  // The caller stands for the lowest core of the mask; one worker per other bit,
  // no more than there are parts for them.
  const int members = std::min(std::popcount(mask), phase.parts);
  auto job = std::make_shared<Job>(phase, members);
  int member = 1;
  for (unsigned rest = mask & (mask - 1); member < members; rest &= rest - 1, ++member) {
    pool()[std::countr_zero(rest)].post(job, member);
  }
  job->work(0);
  // The caller polls too before it sleeps: the workers' last parts usually end
  // within microseconds, and a sleeping caller is as slow to wake as a worker.
  const auto all_done = [&] { return job->done.load(std::memory_order_acquire) == phase.parts; };
  if (poll_before_sleep(all_done)) return;
  for (int d = job->done.load(std::memory_order_acquire); d != phase.parts;
       d = job->done.load(std::memory_order_acquire)) {
    job->done.wait(d, std::memory_order_acquire);
  }
}

}  // namespace bng::opt::pool
