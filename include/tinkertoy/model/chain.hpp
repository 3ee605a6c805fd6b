// Chain: a planar pendulum of N point masses in reduced coordinates, the joint angles
// (the double and triple pendulums of the SIGGRAPH 2001 course slides, done the Lagrangian way; Witkin, "Constrained Dynamics", §5).
//
// The chain hangs from a fixed pivot p. Link j has length L_j and ends at mass m_j. Its angle
// θ_j is absolute (not relative to link j − 1), measured from the downward vertical −ŷ,
// counter-clockwise positive, so link j points along e_j = (sin θ_j, −cos θ_j). Mass i is at
//
//   x_i = p + Σ_{j≤i} L_j e_j
//   ∂x_i/∂θ_j = L_j (cos θ_j, sin θ_j)            for j ≤ i, else 0     (J_i, 3 × N)
//   J̇_i column j = L_j (−sin θ_j, cos θ_j) θ̇_j = −L_j e_j θ̇_j
//
// The reduced mass M = Σ_i m_i J_iᵀ J_i has entries M_jk = L_j L_k cos(θ_j − θ_k) Σ_{i ≥ max(j,k)} m_i,
// and eq. 13's velocity term is Σ_i m_i J_iᵀ J̇_i θ̇; both come from the point-mass sums of
// Body. The rods are rigid by construction: no constraint, no drift. In a 3D model the chain
// swings in the plane z = p_z.
//
//   auto arm = model.addBody(std::make_unique<tinkertoy::Chain>(Eigen::Vector2d(0, 0),
//                                std::vector<double>{1, 1}, std::vector<double>{1, 1}),
//                            Eigen::Vector2d(M_PI / 2, M_PI / 2));   // horizontal along +x
#pragma once

#include <vector>

#include "tinkertoy/core/body.hpp"

namespace tinkertoy {

class Chain final : public Body {
 public:
  // pivot [2 or 3]; lengths and masses: one per link (1 to kMaxBodyCoordinates), all > 0.
  Chain(Eigen::VectorXd pivot, std::vector<double> lengths, std::vector<double> masses);
  explicit Chain(const ChainSettings& s) : Chain(s.pivot, s.lengths, s.masses) {}

  [[nodiscard]] std::string_view type() const override { return ChainSettings::type; }
  [[nodiscard]] BodySettings settings() const override {
    return ChainSettings{.pivot = pivot_, .lengths = lengths_, .masses = masses_};
  }
  [[nodiscard]] int coordinateCount() const override { return static_cast<int>(lengths_.size()); }
  [[nodiscard]] int pointCount() const override { return static_cast<int>(lengths_.size()); }
  [[nodiscard]] double pointMass(int point) const override { return masses_[static_cast<std::size_t>(point)]; }
  void validate(int dimension) const override;
  void pointKinematics(const Site& site, BodyCoordinates q, BodyCoordinates v,
                       PointKinematics& out) const override;

  [[nodiscard]] const Eigen::VectorXd& pivot() const { return pivot_; }
  [[nodiscard]] const std::vector<double>& lengths() const { return lengths_; }
  [[nodiscard]] const std::vector<double>& masses() const { return masses_; }

 private:
  Eigen::VectorXd pivot_;
  std::vector<double> lengths_, masses_;
};

}  // namespace tinkertoy
