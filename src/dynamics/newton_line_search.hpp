// The globalization both projections onto C(q) = 0 share: Projection (acceleration level) and
// GlobalVelocitySolve::project (velocity level), docs/theory.md, "Drift and its remedies".
//
// Each Gauss–Newton step is judged by the merit ½‖C‖₂², for which it is a descent direction
// (it is not one for the max norm that convergence is judged by). A step that does not lower
// the merit is halved, down to a 64th; if even that does not help, the projection stops where
// it was: the constraints cannot all hold near here (a singular configuration, where the step
// is damped and the violation left lies along directions no small move can fix, or
// inconsistent constraints). A plateau, two steps that together remove less than 1 % of the
// merit, stops it too: the violation has settled at a least-squares compromise.
//
//   NewtonLineSearch search;
//   q = start + displacement; evaluate(q);
//   if (!search.backtrack(q, start, displacement, before, evaluate, merit)) { /* stalled */ }
//   if (search.plateau(merit())) { /* stalled */ }
#pragma once

#include <Eigen/Core>
#include <array>
#include <cstddef>

namespace tinkertoy {

class NewtonLineSearch {
 public:
  // q = start + displacement has been evaluated. While merit() is not below `before`, tries
  // half the step, a quarter, … a 64th (evaluate(q) after each move). Returns whether the
  // merit fell; if not, q is back at `start`, evaluated there.
  template <class Evaluate, class Merit>
  static bool backtrack(Eigen::VectorXd& q, const Eigen::VectorXd& start, const Eigen::VectorXd& displacement,
                        double before, Evaluate&& evaluate, Merit&& merit) {
    for (double step = 0.5; !(merit() < before) && step >= kShortestStep; step *= 0.5) {
      q = start + step * displacement;
      evaluate(q);
    }
    if (merit() < before) return true;
    q = start;
    evaluate(q);
    return false;
  }

  // Records the merit after an accepted step; true once the last kWindow − 1 steps together
  // kept more than kPlateau of it.
  bool plateau(double merit) {
    ++steps_;
    merits_[steps_ % kWindow] = merit;
    return steps_ >= kWindow && merit > kPlateau * merits_[(steps_ + 1) % kWindow];
  }

 private:
  static constexpr double kShortestStep = 1.0 / 64.0;
  static constexpr double kPlateau = 0.99;
  static constexpr std::size_t kWindow = 3;

  std::size_t steps_ = 0;
  std::array<double, kWindow> merits_{};  // the merit after each of the last steps
};

}  // namespace tinkertoy
