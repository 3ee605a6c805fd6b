// glibc's rand() and srand(), for METIS in the browser build. METIS draws its random numbers from
// the C library's rand() (GKlib's random.c, as Debian builds it: without USE_GKRAND), and the
// native build's libmetis calls glibc's. The browser's C library is musl, whose rand() is another
// generator, so METIS would order the same matrix differently there; web/CMakeLists.txt builds
// GKlib's random.c with rand and srand renamed to these, which give glibc's sequence.
//
// glibc's generator (its default TYPE_3, a state of 31 words): from the seed s (0 taken as 1, and
// read as a signed 32-bit number) r[0] = s and r[i] = 16807 r[i−1] mod (2³¹ − 1) for i = 1 … 30;
// then r[i] = r[i−31] + r[i−3] (mod 2³²) for i = 34, 35, … with r[31 … 33] = r[0 … 2]; the first
// 310 of those are dropped, and each draw is the next r[i] shifted right by one bit.
#pragma once

extern "C" {
void glibc_srand(unsigned int seed);
int glibc_rand(void);
}
