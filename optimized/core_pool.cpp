#include "core_pool.hpp"

#include <atomic>
#include <bit>
#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <system_error>
#include <thread>

namespace bng::opt::pool {
namespace {

constexpr int kMaxCores = 8;

// One phase in flight. Shared by the caller and the workers it notified; a
// worker that dequeues it after the caller returned finds no part left and
// never touches phase.ctx (which lives on the caller's stack).
struct Job {
  Phase phase;
  std::atomic<int> next{0};
  std::atomic<int> done{0};

  // Claims and runs parts until none is left.
  void work() {
    for (;;) {
      const int p = next.fetch_add(1, std::memory_order_relaxed);
      if (p >= phase.parts) return;
      phase.run(phase.ctx, p);
      if (done.fetch_add(1, std::memory_order_acq_rel) + 1 == phase.parts) done.notify_all();
    }
  }
};

class Worker {
 public:
  void post(std::shared_ptr<Job> job) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      queue_.push_back(std::move(job));
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
      std::shared_ptr<Job> job;
      {
        std::unique_lock<std::mutex> lock(mutex_);
        ready_.wait(lock, [this] { return !queue_.empty(); });
        job = std::move(queue_.front());
        queue_.pop_front();
      }
      job->work();
    }
  }

  std::mutex mutex_;
  std::condition_variable ready_;
  std::deque<std::shared_ptr<Job>> queue_;
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
  auto job = std::make_shared<Job>();
  job->phase = phase;
  // The caller stands for the lowest core of the mask; one worker per other bit,
  // no more than there are parts for them.
  int helpers = phase.parts - 1;
  for (unsigned rest = mask & (mask - 1); rest != 0 && helpers > 0; rest &= rest - 1, --helpers) {
    pool()[std::countr_zero(rest)].post(job);
  }
  job->work();
  for (int d = job->done.load(std::memory_order_acquire); d != phase.parts;
       d = job->done.load(std::memory_order_acquire)) {
    job->done.wait(d, std::memory_order_acquire);
  }
}

}  // namespace bng::opt::pool
