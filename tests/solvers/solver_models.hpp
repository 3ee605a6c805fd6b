// The systems the solver tests share: a random 3D cloth whose J W Jᵀ is SPD, a small chain
// with an optional duplicated rod (a redundant row), and the list of every factorization behind
// the direct solve. Each test compares against a dense matrix built independently of the code
// under test.
#pragma once

#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <cmath>
#include <iostream>
#include <limits>
#include <memory>
#include <random>
#include <vector>

#include "tinkertoy/constraints/distance_constraint.hpp"
#include "tinkertoy/constraints/fixed_point_constraint.hpp"
#include "tinkertoy/dynamics/constraint_system.hpp"
#include "tinkertoy/dynamics/inverse_mass.hpp"
#include "tinkertoy/forces/gravity.hpp"
#include "tinkertoy/math/block_sparse_matrix.hpp"
#include "tinkertoy/model/model.hpp"
#include "tinkertoy/solvers/conjugate_gradient.hpp"
#include "tinkertoy/solvers/constraint_matrix.hpp"
#include "tinkertoy/solvers/linear_solver.hpp"
#include "solvers/constraint_matrix_assembly.hpp"
#include "tinkertoy/solvers/direct_solver.hpp"
#include "tinkertoy/solvers/simplicial_ldlt.hpp"
#include "tinkertoy/solvers/tree_factorization.hpp"


namespace tinkertoy::solver_models {

inline constexpr double kEps = std::numeric_limits<double>::epsilon();

inline Eigen::VectorXd randomVector(std::mt19937& rng, Eigen::Index size, double scale = 1.0) {
  std::uniform_real_distribution<double> u(-scale, scale);
  Eigen::VectorXd x(size);
  for (Eigen::Index i = 0; i < size; ++i) x[i] = u(rng);
  return x;
}


// ---- a real model: a random 3D "cloth" ------------------------------------------------

// An n × n sheet of particles in 3D with random masses and jittered positions, structural
// rods between grid neighbours, one diagonal (shear) rod per cell, and one corner nailed.
// The rods triangulate a disc, whose edges are generically independent in 3D (they are a
// subset of the edges of a triangulated sphere, which is generically minimally rigid), and
// the nail's 3 rows only fix the translation: J has full row rank, so J W Jᵀ is SPD.
struct Cloth {
  Model model{3};
  ConstraintSystem system;
  InverseMass inverseMass;
  std::vector<ConstraintId> rods;

  Cloth(int n, std::mt19937& rng) {
    std::uniform_real_distribution<double> mass(0.5, 2.0);
    std::vector<BodyId> p;
    for (int i = 0; i < n; ++i) {
      for (int j = 0; j < n; ++j) {
        const Eigen::Vector3d x =
            Eigen::Vector3d(0.1 * i, 0.0, 0.1 * j) + randomVector(rng, 3, 0.02);
        p.push_back(model.addParticle(mass(rng), x, randomVector(rng, 3, 1.0)));
      }
    }
    auto at = [&](int i, int j) { return p[static_cast<std::size_t>(i * n + j)]; };
    auto rod = [&](BodyId a, BodyId b) {
      const double length = (model.position(a) - model.position(b)).norm();
      rods.push_back(model.addConstraint(std::make_unique<DistanceConstraint>(a, b, length)));
    };
    for (int i = 0; i < n; ++i) {
      for (int j = 0; j < n; ++j) {
        if (i + 1 < n) rod(at(i, j), at(i + 1, j));
        if (j + 1 < n) rod(at(i, j), at(i, j + 1));
        if (i + 1 < n && j + 1 < n) rod(at(i, j), at(i + 1, j + 1));
      }
    }
    model.addConstraint(std::make_unique<FixedPointConstraint>(at(0, 0), model.position(at(0, 0))));
    model.addForce(std::make_unique<Gravity>(Eigen::Vector3d(0.0, -9.81, 0.0)));
    system.build(model);
    system.evaluate(model.state());
    inverseMass.build(model);
    inverseMass.update(model, model.q());
  }

  [[nodiscard]] ConstraintMatrix matrix() const { return {system.jacobian(), inverseMass.matrix()}; }
  [[nodiscard]] Eigen::MatrixXd denseJ() const { return Eigen::MatrixXd(system.jacobian().toSparse()); }
  // Moves every particle by up to `size` and evaluates J there.
  void jiggle(std::mt19937& rng, double size) {
    model.setState(model.time(), model.q() + randomVector(rng, model.q().size(), size), model.v());
    system.evaluate(model.state());
  }
  [[nodiscard]] Eigen::MatrixXd denseA() const {
    const Eigen::MatrixXd J = denseJ();
    return J * inverseMass.matrix().toDense() * J.transpose();
  }
  // The acceleration-level right-hand side −J̇ q̇ − J W Q with gravity as Q (seed 000 eq. 11).
  [[nodiscard]] Eigen::VectorXd rhs() const {
    Eigen::VectorXd Q = Eigen::VectorXd::Zero(model.q().size());
    for (std::size_t i = 0; i < model.forceCount(); ++i) {
      model.force(model.forceAt(i)).accumulate(model.bodies(), model.state(), Q);
    }
    Eigen::VectorXd JdotV, JWQ;
    system.jacobianDot().multiply(model.v(), JdotV);
    system.jacobian().multiply(inverseMass.matrix().toDense() * Q, JWQ);
    return -JdotV - JWQ;
  }
};


// ---- redundant rows -------------------------------------------------------------------

// A 2D chain of 5 particles nailed at one end, with rods between neighbours and a cross rod;
// optionally one rod is added twice, which duplicates a row of J.
struct Chain {
  Model model{2};
  ConstraintSystem system;
  InverseMass inverseMass;
  std::vector<ConstraintId> rods;
  ConstraintId duplicate;

  explicit Chain(bool withDuplicate) {
    std::mt19937 rng(31);
    std::vector<BodyId> p;
    for (int i = 0; i < 5; ++i) {
      p.push_back(model.addParticle(0.5 + 0.4 * i, Eigen::Vector2d(0.3 * i, 0.05 * i * i),
                                    randomVector(rng, 2, 1.0)));
    }
    auto rod = [&](BodyId a, BodyId b) {
      const double length = (model.position(a) - model.position(b)).norm();
      return model.addConstraint(std::make_unique<DistanceConstraint>(a, b, length));
    };
    model.addConstraint(std::make_unique<FixedPointConstraint>(p[0], model.position(p[0])));
    for (std::size_t i = 0; i + 1 < p.size(); ++i) rods.push_back(rod(p[i], p[i + 1]));
    rods.push_back(rod(p[1], p[3]));
    if (withDuplicate) duplicate = rod(p[1], p[2]);  // same as rods[1]
    model.addForce(std::make_unique<Gravity>(Eigen::Vector2d(0.0, -9.81)));
    system.build(model);
    system.evaluate(model.state());
    inverseMass.build(model);
    inverseMass.update(model, model.q());
  }

  [[nodiscard]] Eigen::Index row(ConstraintId id) const { return system.rowOffset(model.indexOf(id)); }
  [[nodiscard]] ConstraintMatrix matrix() const { return {system.jacobian(), inverseMass.matrix()}; }
  [[nodiscard]] Eigen::VectorXd rhs() const {
    Eigen::VectorXd Q = Eigen::VectorXd::Zero(model.q().size());
    model.force(model.forceAt(0)).accumulate(model.bodies(), model.state(), Q);
    Eigen::VectorXd JdotV, JWQ;
    system.jacobianDot().multiply(model.v(), JdotV);
    system.jacobian().multiply(inverseMass.matrix().toDense() * Q, JWQ);
    return -JdotV - JWQ;
  }
  [[nodiscard]] Eigen::VectorXd force(const Eigen::VectorXd& lambda) const {
    Eigen::VectorXd f;
    system.jacobian().multiplyTransposed(lambda, f);
    return f;
  }
};

struct RedundantFixture : ::testing::Test {
  Chain plain{false};
  Chain redundant{true};
  Eigen::VectorXd referenceForce;

  void SetUp() override {
    // Sanity: the duplicated rows really are identical, so J W Jᵀ is singular.
    const Eigen::MatrixXd J(redundant.system.jacobian().toSparse());
    ASSERT_EQ(J.rows(), plain.system.rows() + 1);
    ASSERT_EQ((J.row(redundant.row(redundant.rods[1])) - J.row(redundant.row(redundant.duplicate)))
                  .cwiseAbs()
                  .maxCoeff(),
              0.0);
    // The force of the non-redundant system, solved densely.
    const Eigen::MatrixXd Jp(plain.system.jacobian().toSparse());
    const Eigen::MatrixXd Ap = Jp * plain.inverseMass.matrix().toDense() * Jp.transpose();
    referenceForce = Jp.transpose() * Ap.ldlt().solve(plain.rhs());
  }
};


// Every factorization behind the direct solve, for the tests that hold for each.
class EachFactorization : public ::testing::WithParamInterface<FactorizationKind> {};
inline std::string factorizationLabel(const ::testing::TestParamInfo<FactorizationKind>& info) {
  return std::string(factorizationName(info.param));
}
#define EVERY_FACTORIZATION \
  ::testing::Values(FactorizationKind::Simplicial, FactorizationKind::Supernodal, FactorizationKind::Tree)

// A model's J (evaluated at its state) and W, and J W Jᵀ + ε diag(J W Jᵀ) over them (ε > 0
// for redundant models).
struct ModelMatrix {
  ConstraintSystem system;
  InverseMass W;
  Eigen::VectorXd shift;  // ε diag(J W Jᵀ)

  explicit ModelMatrix(const Model& model, double regularization = 0.0) {
    system.build(model);
    system.evaluate(model.state());
    W.build(model);
    W.update(model, model.q());
    ConstraintMatrix(system.jacobian(), W.matrix()).diagonal(shift);
    shift *= regularization;
  }
  ModelMatrix(const ModelMatrix&) = delete;
  ModelMatrix& operator=(const ModelMatrix&) = delete;
  [[nodiscard]] ConstraintMatrix matrix() const { return {system.jacobian(), W.matrix(), &shift}; }
  [[nodiscard]] Eigen::MatrixXd dense() const {
    const Eigen::MatrixXd J(system.jacobian().toSparse());
    Eigen::MatrixXd a = J * W.matrix().toDense() * J.transpose();
    a.diagonal() += shift;
    return a;
  }
};

}  // namespace tinkertoy::solver_models
