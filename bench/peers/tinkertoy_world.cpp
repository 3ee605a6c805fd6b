// Tinkertoy's own modes in the peer benchmark, through the same interface as the peers.
//
//   exact        the velocity level with a direct solve and projection onto C = 0, one substep
//                per step (the projection, not substeps, keeps the constraints; joint_grid's 4
//                substeps are for engines whose joints stretch): constraint error at round-off
//   exact, 2 threads   the same on two threads (the constraints' evaluation shared; the same
//                bits as one thread): its wall time is the figure, its CPU time counts both
//   sequential   the velocity level with sequential impulses, 8 passes and Baumgarte (the
//                game-engine mode, for reference; joint_grid: its 4 substeps)
//   soft step    joint_grid and the scenes that collide: Box2D v3's solver, the soft step at its 4 substeps with one
//                soft and one relax pass each, on one thread and on two
#include <memory>

#include "bench_models.hpp"
#include "peer_world.hpp"
#include "tinkertoy/dynamics/simulator.hpp"

namespace tinkertoy::bench {

namespace {

class TinkertoyWorld final : public PeerWorld {
 public:
  TinkertoyWorld(const Scenario& scenario, const SimulationSettings& settings)
      : model_(tinkertoyModel(scenario)), simulator_(model_, settings), bodies_(scenario.bodyCount()) {}

  void step() override { simulator_.step(); }

  void read(std::span<BodyState> out) const override {
    readState(model_, bodies_, scratch_);
    std::copy(scratch_.begin(), scratch_.end(), out.begin());
  }

  void masses(std::span<double> out) const override {
    for (std::size_t i = 0; i < bodies_; ++i) {
      const Body& body = model_.body(model_.bodyAt(i));
      out[i] = body.isDriven() ? 0.0 : body.totalMass();
    }
  }

 private:
  Model model_;
  Simulator simulator_;
  std::size_t bodies_;  // the scenario's, first in the model (the tumbler's container follows)
  mutable std::vector<BodyState> scratch_;
};

}  // namespace

std::vector<EngineMode> tinkertoyModes() {
  const auto any = [](const Scenario&) { return true; };
  EngineMode exact{"tinkertoy", "exact", true, any, [](const Scenario& scenario) {
                     return std::make_unique<TinkertoyWorld>(scenario, exactModeSettings(scenario, 1));
                   }};
  EngineMode exactTwoThreads{"tinkertoy", "exact, 2 threads", true, any, [](const Scenario& scenario) {
                                return std::make_unique<TinkertoyWorld>(scenario, exactModeSettings(scenario, 2));
                              },
                              2};
  EngineMode sequential{"tinkertoy", "sequential, 8 passes", true, any, [](const Scenario& scenario) {
                          SimulationSettings s = velocityLevelSettings(scenario);
                          s.solver.kind = SolverKind::SequentialImpulses;
                          s.velocity.iterations = 8;
                          s.velocity.positionCorrection = PositionCorrection::Baumgarte;
                          return std::make_unique<TinkertoyWorld>(scenario, s);
                        }};
  const auto softStep = [](int threads) {
    return [threads](const Scenario& scenario) {
      return std::unique_ptr<PeerWorld>(std::make_unique<TinkertoyWorld>(scenario, softStepSettings(scenario, threads)));
    };
  };
  EngineMode soft{"tinkertoy", "soft step, 4 substeps", true, hasSoftStep, softStep(1)};
  EngineMode softTwoThreads{"tinkertoy", "soft step, 4 substeps, 2 threads", true, hasSoftStep, softStep(2), 2};
  return {exact, exactTwoThreads, sequential, soft, softTwoThreads};
}

}  // namespace tinkertoy::bench
