#include "cpu.hpp"

namespace rlk::cpu {

ThreadPool::ThreadPool(unsigned threads) : threads_(std::max(1u, threads)) {
  for (unsigned i = 1; i < threads_; ++i) workers_.emplace_back([this, i] { worker(i); });
}

ThreadPool::~ThreadPool() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
  }
  start_.notify_all();
  for (auto& w : workers_) w.join();
}

void ThreadPool::run(const std::function<void(unsigned, unsigned)>& task) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    task_ = &task;
    pending_ = threads_ - 1;
    ++generation_;
  }
  start_.notify_all();
  task(0, threads_);
  std::unique_lock<std::mutex> lock(mutex_);
  done_.wait(lock, [this] { return pending_ == 0; });
  task_ = nullptr;
}

void ThreadPool::worker(unsigned index) {
  std::uint64_t seen = 0;
  for (;;) {
    const std::function<void(unsigned, unsigned)>* task;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      start_.wait(lock, [&] { return stop_ || generation_ != seen; });
      if (stop_) return;
      seen = generation_;
      task = task_;
    }
    (*task)(index, threads_);
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (--pending_ == 0) done_.notify_one();
    }
  }
}

}  // namespace rlk::cpu
