#include "solvers/fill_reducing_ordering.hpp"

#include <suitesparse/cholmod.h>

#include <algorithm>
#include <stdexcept>

namespace tinkertoy {

FillReducingOrdering fillReducingOrdering(Eigen::SparseMatrix<double, Eigen::ColMajor, int>& lower) {
  FillReducingOrdering result;
  const auto m = static_cast<std::size_t>(lower.rows());
  result.pivotRow.resize(m);
  if (m == 0) return result;
  cholmod_common common{};
  cholmod_start(&common);
  common.print = 0;
  common.nmethods = 3;
  common.method[0].ordering = CHOLMOD_AMD;
  common.method[1].ordering = CHOLMOD_METIS;
  common.method[2].ordering = CHOLMOD_NESDIS;
  common.postorder = 1;
  common.supernodal = CHOLMOD_SIMPLICIAL;  // the ordering only: no supernodal analysis needed
  cholmod_sparse pattern{};
  pattern.nrow = pattern.ncol = m;
  pattern.nzmax = static_cast<std::size_t>(lower.nonZeros());
  pattern.p = lower.outerIndexPtr();
  pattern.i = lower.innerIndexPtr();
  pattern.stype = -1;  // the lower triangle of a symmetric matrix
  pattern.itype = CHOLMOD_INT;
  pattern.xtype = CHOLMOD_PATTERN;
  pattern.dtype = CHOLMOD_DOUBLE;
  pattern.sorted = 1;
  pattern.packed = 1;
  cholmod_factor* L = cholmod_analyze(&pattern, &common);
  if (!L || common.status < CHOLMOD_OK) {
    cholmod_free_factor(&L, &common);
    cholmod_finish(&common);
    throw std::runtime_error("CHOLMOD could not order J W Jᵀ");
  }
  std::copy_n(static_cast<const int*>(L->Perm), m, result.pivotRow.begin());
  result.flops = common.fl;
  result.factorEntries = common.lnz;
  cholmod_free_factor(&L, &common);
  cholmod_finish(&common);
  return result;
}

}  // namespace tinkertoy
