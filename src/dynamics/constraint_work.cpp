#include "dynamics/constraint_work.hpp"

namespace tinkertoy {

void ConstraintWork::build(const Model& model) {
  driven_.clear();
  for (std::size_t b = 0; b < model.bodyCount(); ++b) {
    const BodyId id = model.bodyAt(b);
    const Body& body = model.body(id);
    if (body.isDriven()) {
      driven_.emplace_back(static_cast<Eigen::Index>(model.offsetOf(id)), body.coordinateCount());
    }
  }
}

void ConstraintWork::add(const ConstraintSystem& system, const Eigen::VectorXd& lambda, const Eigen::VectorXd& before,
                         const Eigen::VectorXd& after, WorkLedger& ledger, bool drivenOnly) {
  if (system.rows() == 0 || (drivenOnly && !system.hasDrivenRows())) return;
  mean_ = 0.5 * (before + after);
  for (const auto& [offset, size] : driven_) mean_.segment(offset, size).setZero();
  system.jacobian().multiply(mean_, rates_);
  const std::span<const WorkSource> sources = system.workSources();
  for (Eigen::Index r = 0; r < lambda.size(); ++r) {
    const WorkSource source = sources[static_cast<std::size_t>(r)];
    if (!drivenOnly || source == WorkSource::Driven) ledger[source] += lambda[r] * rates_[r];
  }
}

}  // namespace tinkertoy
