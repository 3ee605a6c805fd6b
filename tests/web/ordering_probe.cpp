// ordering_probe: CHOLMOD's fill-reducing orderings (AMD, METIS, nested dissection) of a 40 × 40
// grid's 5-point pattern, one line each: the method, the factor's entries and a hash of the
// permutation. tests/web/ordering_test.cpp runs it natively (Debian's CHOLMOD and libmetis) and
// in node (the browser build's, web/CMakeLists.txt): the same lines mean that the browser orders
// J W Jᵀ as the desktop does, METIS's random choices included (apps/web/glibc_rand.hpp).
#include <suitesparse/cholmod.h>

#include <cstdint>
#include <cstdio>
#include <vector>

int main() {
  constexpr int kSide = 40, kSize = kSide * kSide;
  std::vector<int> start{0}, row;  // the lower triangle, column by column
  for (int c = 0; c < kSize; ++c) {
    row.push_back(c);
    if (c % kSide + 1 < kSide) row.push_back(c + 1);
    if (c + kSide < kSize) row.push_back(c + kSide);
    start.push_back(static_cast<int>(row.size()));
  }
  for (const auto& [ordering, name] : {std::pair{CHOLMOD_AMD, "amd"}, std::pair{CHOLMOD_METIS, "metis"},
                                       std::pair{CHOLMOD_NESDIS, "nesdis"}}) {
    cholmod_common common{};
    cholmod_start(&common);
    common.print = 0;
    common.nmethods = 1;
    common.method[0].ordering = ordering;
    common.postorder = 1;
    common.supernodal = CHOLMOD_SIMPLICIAL;
    cholmod_sparse pattern{};
    pattern.nrow = pattern.ncol = kSize;
    pattern.nzmax = row.size();
    pattern.p = start.data();
    pattern.i = row.data();
    pattern.stype = -1;
    pattern.itype = CHOLMOD_INT;
    pattern.xtype = CHOLMOD_PATTERN;
    pattern.dtype = CHOLMOD_DOUBLE;
    pattern.sorted = pattern.packed = 1;
    cholmod_factor* factor = cholmod_analyze(&pattern, &common);
    if (!factor) {
      std::printf("%s: failed, status %d\n", name, common.status);
      cholmod_finish(&common);
      return 1;
    }
    std::uint64_t hash = 1469598103934665603u;  // FNV-1a of the permutation
    for (int k = 0; k < kSize; ++k) hash = (hash ^ static_cast<std::uint32_t>(static_cast<int*>(factor->Perm)[k])) * 1099511628211u;
    std::printf("%s: %.0f entries, permutation %016llx\n", name, common.lnz, static_cast<unsigned long long>(hash));
    cholmod_free_factor(&factor, &common);
    cholmod_finish(&common);
  }
  return 0;
}
