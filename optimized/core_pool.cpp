#include "core_pool.hpp"

#include "bng/optimized/schedule.hpp"

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

constexpr int kMaxCores = kPoolCores;

// How long an idle worker polls for the next job (and a member for the end of
// a phase) before it sleeps. A training loop calls again soon after a call,
// and a call's phases (reduce, combine, apply) follow each other within
// microseconds; waking a sleeping thread costs tens of microseconds on the
// project's virtual machine, more than a whole phase of a cache-resident call
// (docs/performance.md). Polling this long after each job costs at most this
// much of an otherwise idle core - the same trade as OpenMP runtimes'
// spin-then-sleep.
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

// One call's phases in flight. Shared by the caller and the workers it
// notified; a worker that dequeues it after the caller returned finds no part
// left and never touches a phase's ctx (which lives on the caller's stack).
//
// Member i (the caller is 0, then the workers in core order) owns the i-th of
// `members` equal ranges of each phase's parts and runs it first, in order,
// before taking parts left in the others' ranges. So with the same mask and
// shape the same core runs the same part in every phase and every call - part
// r of pass 1 and of pass 2 cover the same rows - and finds that part's data
// in its own cache instead of pulling the lines from the other core's
// (dynamic claiming made 256x1024 inference slower on two cores than on one).
// A late or descheduled worker still costs nothing: the others take its parts.
//
// Between phases each member waits until every part of the phase is done
// (not until every member arrived: a member that never comes is no reason to
// wait), then goes on to the next phase's parts.
struct Job {
  struct alignas(64) Range {  // one cache line each: members claim concurrently
    std::atomic<int> next{0};
    int end = 0;
  };
  struct Stage {
    Phase phase{};
    Range ranges[kMaxCores];
    alignas(64) std::atomic<int> done{0};
  };
  Stage stages[kMaxPhases];
  int count = 0;
  int members = 1;

  Job(const Phase* phases, int n, int m) : members(m) {
    for (const Phase* p = phases; p != phases + n; ++p) {
      if (p->parts <= 0) continue;
      Stage& s = stages[count++];
      s.phase = *p;
      // Rounded up: a phase of fewer parts than members leaves the last
      // members none, not the caller.
      for (int i = 0; i < m; ++i) {
        s.ranges[i].next.store((p->parts * i + m - 1) / m, std::memory_order_relaxed);
        s.ranges[i].end = (p->parts * (i + 1) + m - 1) / m;
      }
    }
  }

  // Runs stage k's parts until none is left: member's own range, then the others'.
  void run_stage(int k, int member) {
    Stage& s = stages[k];
    for (int j = 0; j < members; ++j) {
      Range& r = s.ranges[(member + j) % members];
      for (int p = r.next.fetch_add(1, std::memory_order_relaxed); p < r.end;
           p = r.next.fetch_add(1, std::memory_order_relaxed)) {
        s.phase.run(s.phase.ctx, p);
        if (s.done.fetch_add(1, std::memory_order_acq_rel) + 1 == s.phase.parts) {
          s.done.notify_all();
        }
      }
    }
  }

  // Returns when every part of stage k is done. Polls first: the other
  // members' last parts usually end within microseconds, and a sleeping
  // thread is slow to wake.
  void wait_for(int k) {
    Stage& s = stages[k];
    const int parts = s.phase.parts;
    if (poll_before_sleep([&] { return s.done.load(std::memory_order_acquire) == parts; })) {
      return;
    }
    for (int d = s.done.load(std::memory_order_acquire); d != parts;
         d = s.done.load(std::memory_order_acquire)) {
      s.done.wait(d, std::memory_order_acquire);
    }
  }

  // Every stage in order; the caller (wait_last) also waits for the last.
  void work(int member, bool wait_last) {
    for (int k = 0; k < count; ++k) {
      run_stage(k, member);
      if (k + 1 < count || wait_last) wait_for(k);
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
      posted.job->work(posted.member, /*wait_last=*/false);
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

// The bits of a core mask the pool serves (threads_of_mask counts them).
unsigned served(unsigned core_mask) {
  return core_mask & ((1u << kMaxCores) - 1);
}

// Up to kMaxPhases phases as one job.
void run_phases(unsigned core_mask, const Phase* phases, int n) {
  int most = 0;
  for (int k = 0; k < n; ++k) most = std::max(most, phases[k].parts);
  if (most <= 0) return;
  const unsigned mask = served(core_mask);
  if (most == 1 || threads_of_mask(mask) == 1) {
    for (int k = 0; k < n; ++k) {
      for (int p = 0; p < phases[k].parts; ++p) phases[k].run(phases[k].ctx, p);
    }
    return;
  }
  // The caller stands for the lowest core of the mask; one worker per other
  // bit, no more than the largest phase has parts for.
  const int members = std::min(threads_of_mask(mask), most);
  auto job = std::make_shared<Job>(phases, n, members);
  int member = 1;
  for (unsigned rest = mask & (mask - 1); member < members; rest &= rest - 1, ++member) {
    pool()[std::countr_zero(rest)].post(job, member);
  }
  job->work(0, /*wait_last=*/true);
}

}  // namespace

void run(unsigned core_mask, std::initializer_list<Phase> phases) {
  const Phase* const first = phases.begin();
  const int n = static_cast<int>(phases.size());
  for (int k = 0; k < n; k += kMaxPhases) {
    run_phases(core_mask, first + k, std::min(n - k, kMaxPhases));
  }
}

}  // namespace bng::opt::pool
