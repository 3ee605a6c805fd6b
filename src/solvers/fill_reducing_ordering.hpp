// The symmetric ordering P that the sparse factorizations of A = J W Jᵀ + S eliminate in: of AMD
// (minimum degree), METIS and CHOLMOD's nested dissection (NESDIS), the one whose Cholesky
// factor costs the fewest flops, followed by a postorder of its elimination tree (CHOLMOD's
// analysis, SuiteSparse). Minimum degree suits chains and trees; nested dissection grids.
//
//   FillReducingOrdering o = fillReducingOrdering(assembly.pattern());
//   o.pivotRow[k]   the row of A eliminated k-th
//   o.flops         of the numeric Cholesky factorization in that order
#pragma once

#include <Eigen/SparseCore>
#include <vector>

namespace tinkertoy {

struct FillReducingOrdering {
  std::vector<int> pivotRow;  // [m]
  double flops = 0.0;         // of L Lᵀ (an L D Lᵀ costs the same)
  double factorEntries = 0.0; // nnz(L), diagonal included
};

// lower: the pattern of A's lower triangle, diagonal included [m × m].
FillReducingOrdering fillReducingOrdering(Eigen::SparseMatrix<double, Eigen::ColMajor, int>& lower);

}  // namespace tinkertoy
