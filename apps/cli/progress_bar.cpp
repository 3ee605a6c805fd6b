// The progress line on stderr (progress_bar.hpp).
#include "progress_bar.hpp"

#include "printable_stream.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace tinkertoy::cli {

namespace {

constexpr auto kRedrawInterval = std::chrono::milliseconds(100);
constexpr int kBarWidth = 20;

// "42 s", "3 min 5 s", "2 h 7 min".
std::string duration(double seconds) {
  const auto s = static_cast<long>(std::lround(seconds));
  char text[32];
  if (s < 60) {
    std::snprintf(text, sizeof text, "%ld s", s);
  } else if (s < 3600) {
    std::snprintf(text, sizeof text, "%ld min %ld s", s / 60, s % 60);
  } else {
    std::snprintf(text, sizeof text, "%ld h %ld min", s / 3600, (s % 3600) / 60);
  }
  return text;
}

}  // namespace

ProgressBar::ProgressBar(std::ostream& err, bool enabled, std::string label, std::uint64_t total, std::string unit)
    : err_(unescaped(err)),
      enabled_(enabled && total > 0),
      label_(std::move(label)),
      unit_(std::move(unit)),
      total_(total),
      start_(std::chrono::steady_clock::now()),
      lastDrawn_(start_) {}

void ProgressBar::update(std::uint64_t done, double time) {
  if (!enabled_) return;
  const auto now = std::chrono::steady_clock::now();
  if (drawn_ && now - lastDrawn_ < kRedrawInterval && done < total_) return;
  lastDrawn_ = now;
  draw(done, time);
}

void ProgressBar::draw(std::uint64_t done, double time) {
  const double fraction = std::min(1.0, static_cast<double>(done) / static_cast<double>(total_));
  const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  const double rate = elapsed > 0.0 ? static_cast<double>(done) / elapsed : 0.0;
  const auto filled = static_cast<int>(fraction * kBarWidth);
  std::string line = "\r\033[K" + label_ + " [" + std::string(static_cast<std::size_t>(filled), '#') +
                     std::string(static_cast<std::size_t>(kBarWidth - filled), '-') + "]";
  char text[160];
  std::snprintf(text, sizeof text, " %3.0f%%", 100.0 * fraction);
  line += text;
  if (std::isfinite(time)) {
    std::snprintf(text, sizeof text, "  t = %.2f s", time);
    line += text;
  }
  if (rate > 0.0) {
    std::snprintf(text, sizeof text, "  %.0f %s/s  ETA %s", rate, unit_.c_str(),
                  duration(static_cast<double>(total_ - std::min(done, total_)) / rate).c_str());
    line += text;
  }
  err_ << line << std::flush;
  drawn_ = true;
}

void ProgressBar::finish() {
  if (!drawn_) return;
  err_ << "\r\033[K" << std::flush;
  drawn_ = false;
  enabled_ = false;
}

}  // namespace tinkertoy::cli
