// glibc's rand() and srand() (glibc_rand.hpp). One state, as the C library's rand() has.
#include "glibc_rand.hpp"

#include <cstdint>

namespace {

constexpr int kWords = 31, kTap = 3, kDropped = 310;

std::uint32_t state[kWords];
int front = kTap;  // state[front] += state[rear]; the draw is the new state[front] >> 1
int rear = 0;

std::uint32_t next() {
  state[front] += state[rear];
  const std::uint32_t draw = state[front] >> 1;
  front = (front + 1) % kWords;
  rear = (rear + 1) % kWords;
  return draw;
}

}  // namespace

extern "C" void glibc_srand(unsigned int seed) {
  if (seed == 0) seed = 1;
  auto word = static_cast<std::int32_t>(seed);  // glibc's word is 32 bits: a seed from 2³¹ on starts negative
  state[0] = static_cast<std::uint32_t>(word);
  for (int i = 1; i < kWords; ++i) {
    // 16807 word mod (2³¹ − 1), without overflow (Schrage's method), as glibc computes it
    const std::int64_t hi = word / 127773, lo = word % 127773;
    word = static_cast<std::int32_t>(16807 * lo - 2836 * hi);
    if (word < 0) word += 2147483647;
    state[i] = static_cast<std::uint32_t>(word);
  }
  front = kTap;
  rear = 0;
  for (int i = 0; i < kDropped; ++i) next();
}

extern "C" int glibc_rand(void) { return static_cast<int>(next()); }
