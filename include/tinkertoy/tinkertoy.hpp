// Tinkertoy: constrained dynamics after Witkin. This header includes the whole public API.
//
//   #include <tinkertoy/tinkertoy.hpp>
//   tinkertoy::Model model(2);
//   auto bob = model.addParticle(1.0, Eigen::Vector2d(1, 0));
//   model.addConstraint(std::make_unique<tinkertoy::DistanceConstraint>(bob, Eigen::Vector2d(0, 0), 1.0));
//   tinkertoy::Simulator sim(model);
//   sim.step();
#pragma once

#include "tinkertoy/constraints/constraint.hpp"
#include "tinkertoy/constraints/distance_constraint.hpp"
#include "tinkertoy/constraints/driven_point_constraint.hpp"
#include "tinkertoy/constraints/fixed_point_constraint.hpp"
#include "tinkertoy/constraints/path.hpp"
#include "tinkertoy/constraints/point_on_circle_constraint.hpp"
#include "tinkertoy/constraints/point_on_line_constraint.hpp"
#include "tinkertoy/constraints/point_on_plane_constraint.hpp"
#include "tinkertoy/curves/curve.hpp"
#include "tinkertoy/curves/ellipse_curve.hpp"
#include "tinkertoy/curves/helix_curve.hpp"
#include "tinkertoy/curves/line_curve.hpp"
#include "tinkertoy/curves/spline_curve.hpp"
#include "tinkertoy/dynamics/acceleration_dynamics.hpp"
#include "tinkertoy/dynamics/constraint_system.hpp"
#include "tinkertoy/dynamics/derivative_audit.hpp"
#include "tinkertoy/dynamics/inverse_mass.hpp"
#include "tinkertoy/dynamics/projection.hpp"
#include "tinkertoy/dynamics/run_statistics.hpp"
#include "tinkertoy/dynamics/simulation_error.hpp"
#include "tinkertoy/dynamics/simulator.hpp"
#include "tinkertoy/forces/constant_force.hpp"
#include "tinkertoy/forces/drag.hpp"
#include "tinkertoy/forces/force.hpp"
#include "tinkertoy/forces/gravity.hpp"
#include "tinkertoy/forces/mouse_spring.hpp"
#include "tinkertoy/forces/spring.hpp"
#include "tinkertoy/integrators/integrator.hpp"
#include "tinkertoy/math/block_diagonal_matrix.hpp"
#include "tinkertoy/math/block_sparse_matrix.hpp"
#include "tinkertoy/model/bead.hpp"
#include "tinkertoy/model/body.hpp"
#include "tinkertoy/model/chain.hpp"
#include "tinkertoy/model/handles.hpp"
#include "tinkertoy/model/model.hpp"
#include "tinkertoy/model/particle.hpp"
#include "tinkertoy/model/point.hpp"
#include "tinkertoy/model/state_view.hpp"
#include "tinkertoy/scene/scene.hpp"
#include "tinkertoy/solvers/conjugate_gradient.hpp"
#include "tinkertoy/solvers/constraint_matrix.hpp"
#include "tinkertoy/solvers/linear_solver.hpp"
#include "tinkertoy/solvers/sparse_ldlt.hpp"
