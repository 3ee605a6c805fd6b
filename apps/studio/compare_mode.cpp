// Studio: compare mode (studio.hpp) — the model run a second time under other settings flags
// (ghost_run.hpp), kept on the first run's clock, and its section of the side panel.
#include <imgui.h>
#include <imgui_stdlib.h>

#include <sstream>

#include "studio.hpp"
#include "tinkertoy/model/spring_for_rod.hpp"

namespace tinkertoy::studio {

void Studio::compare(const std::string& flags) {
  ghostFlags_ = flags;
  try {
    ghost_ = GhostRun::start(document_.text(), flags);
  } catch (const std::exception& e) {
    report(e.what(), true);
    return;
  }
  ghostRevision_ = document_.revision();
  openCompare_ = true;
  report("comparing with " + (flags.empty() ? std::string("the scene's own settings") : flags) +
             ": the ghost is drawn in orange, from the state the model had now",
         false);
}

void Studio::stopCompare() { ghost_.reset(); }

void Studio::advanceGhost() {
  if (!ghost_) return;
  const double time = document_.scene().model.time();
  if (ghostRevision_ != document_.revision() || time + 0.5 * ghost_->scene().settings.dt < ghost_->scene().model.time()) {
    const bool opening = openCompare_;
    compare(ghostFlags_);  // edited, reset or undone: compare from the model's state now
    openCompare_ = opening;  // the user's own start opens the section, not this one
    if (!ghost_) return;
  }
  ghost_->advanceTo(time);
}

void Studio::comparePanel() {
  ImGui::TextWrapped("Run the model a second time under other settings flags (those of `tinkertoy run`), drawn over it "
                     "as an orange ghost, with both runs on the plots. To see a rod as a spring, select the rod: its "
                     "inspector offers it.");
  ImGui::SetNextItemWidth(-1);
  const bool enter = ImGui::InputTextWithHint("##ghost flags", "--integrator euler --no-project", &ghostFlags_,
                                              ImGuiInputTextFlags_EnterReturnsTrue);
  if (enter || ImGui::Button(ghost_ ? "Restart" : "Compare")) compare(ghostFlags_);
  if (!ghost_) return;
  ImGui::SameLine();
  if (ImGui::Button("Stop")) {
    stopCompare();
    return;
  }
  // The one-line table: what a step costs each run, and how well each holds its constraints.
  const double ghostMicroseconds = ghost_->steps() > 0 ? 1e6 * ghost_->seconds() / static_cast<double>(ghost_->steps()) : 0.0;
  const double ghostError = ghost_->history().empty() ? 0.0 : ghost_->history().back().constraintError;
  ImGui::TextWrapped("this run: %.0f steps/s, ‖C‖∞ %.2e  |  ghost: %.1f µs/step, ‖C‖∞ %.2e%s%s%s", session_.stepsPerSecond(),
                     session_.simulator().diagnostics().constraintError, ghostMicroseconds, ghostError,
                     ghost_->replacesRods() ? " (with its springs' stretch)" : "",
                     ghost_->error().empty() ? "" : "; stopped: ", ghost_->error().c_str());
}

void Studio::springForSelectedRod() {
  const auto* rod = std::get_if<ConstraintId>(&selected_);
  const Model& model = document_.scene().model;
  if (rod == nullptr || !model.contains(*rod) || !isRigidRod(model.constraint(*rod))) return;
  ImGui::Separator();
  const bool go = ImGui::Button("Compare with a spring in its place");
  if (ImGui::IsItemHovered()) {
    ImGui::SetTooltip("Runs the model a second time, drawn as a ghost, with this rod a spring of its length");
  }
  ImGui::InputFloat("stiffness, N/m", &springStiffness_, 0.0f, 0.0f, "%g");
  ImGui::InputFloat("damping, N·s/m", &springDamping_, 0.0f, 0.0f, "%g");
  if (!go) return;
  std::ostringstream flags;  // the name quoted, as a shell would need it, when it has a space or a quote
  const std::string& name = model.name(*rod);
  const bool plain = name.find_first_of(" \t'\"") == std::string::npos;
  flags << "--spring-for " << (plain ? name : "\"" + name + "\"") << " --spring-stiffness " << springStiffness_
        << " --spring-damping " << springDamping_;
  compare(flags.str());
}

}  // namespace tinkertoy::studio
