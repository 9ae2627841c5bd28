// Cooperative interruption of long kernels (Ctrl-C). A kernel that can run
// for more than a fraction of a second takes an Interrupt and asks
// `requested()` between chunks of its work (every few milliseconds of work
// per thread); once it is true every thread leaves its loop and the kernel
// returns early, its output unspecified. Nothing is thrown: OpenMP regions
// are left normally.
//
// The caller supplies the poll (the Python binding's runs Python's signal
// handlers). It is called only on the thread that constructed the
// Interrupt, at most once per `interval`; other threads only read an atomic
// flag, so they never call the poll. Pure C++; no global state.
#pragma once

#include <atomic>
#include <chrono>
#include <thread>

namespace turbometrics {

class Interrupt {
 public:
  // Returns true when the computation must stop.
  using Poll = bool (*)();
  using Clock = std::chrono::steady_clock;

  // Without a poll the computation is never interrupted.
  explicit Interrupt(Poll poll = nullptr, Clock::duration interval = std::chrono::milliseconds(20))
      : poll_(poll), interval_(interval), owner_(std::this_thread::get_id()), next_poll_(Clock::now() + interval) {}
  Interrupt(const Interrupt&) = delete;
  Interrupt& operator=(const Interrupt&) = delete;

  // True once the computation must stop. Safe from any thread; on the
  // constructing thread it polls when `interval` has passed since the last
  // poll.
  bool requested() const {
    if (stop_.load(std::memory_order_relaxed)) return true;
    if (poll_ && std::this_thread::get_id() == owner_) {
      const Clock::time_point now = Clock::now();
      if (now >= next_poll_) {
        next_poll_ = now + interval_;
        if (poll_()) stop_.store(true, std::memory_order_relaxed);
      }
    }
    return stop_.load(std::memory_order_relaxed);
  }

  // Whether a poll has asked to stop (read after the kernel returned).
  bool stopped() const { return stop_.load(std::memory_order_relaxed); }

  // An Interrupt that never stops, the default of kernels' last argument.
  static const Interrupt& never() {
    static const Interrupt none;
    return none;
  }

 private:
  Poll poll_;
  Clock::duration interval_;
  std::thread::id owner_;
  mutable Clock::time_point next_poll_;  // read and written by the owner only
  mutable std::atomic<bool> stop_{false};
};

}  // namespace turbometrics
