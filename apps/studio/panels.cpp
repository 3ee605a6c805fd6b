// Studio: the windows — tool bar, settings, plots, status bar, help, dialogs (the inspector:
// inspector_panel.cpp).
#include <imgui.h>
#include <imgui_stdlib.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <iomanip>
#include <sstream>

#include "layout.hpp"
#include "number_field.hpp"
#include "message_lines.hpp"
#include "plot_axis.hpp"
#include "studio.hpp"

namespace tinkertoy::studio {

namespace {

// The monospaced font main.cpp loads second, if it could; ImGui's own font is monospaced too.
ImFont* monospacedFont() {
  const ImFontAtlas& atlas = *ImGui::GetIO().Fonts;
  return atlas.Fonts.Size > 1 ? atlas.Fonts[1] : nullptr;
}

constexpr float kPlotHeight = 84.0f;    // px, of one plot's box
constexpr float kPlotsHeight = 380.0f;  // px: the window's choice, the three plots with their titles and the work line
constexpr ImGuiWindowFlags kFixed = ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoCollapse |
                                    ImGuiWindowFlags_NoSavedSettings;

// One line plot of several series over time, with a legend, in a box of the given size.
struct Series {
  const char* label;
  ImU32 colour;
  std::function<double(const HistorySample&)> value;
  const std::deque<HistorySample>* samples = nullptr;  // its own history (the compare ghost's); null: the plot's
};

// One plot of the last `window` seconds of the history (infinite: all of it): the curves and
// the value axis both cover only that time, so an old yank does not flatten what follows.
void plot(const char* title, const std::deque<HistorySample>& history, const std::vector<Series>& series, bool logScale,
          const char* unit, double window) {
  ImGui::TextUnformatted(title);
  for (const Series& s : series) {  // the legend, on the title's line
    ImGui::SameLine();
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(s.colour), "— %s", s.label);
  }
  const ImVec2 size(ImGui::GetContentRegionAvail().x, kPlotHeight);
  const ImVec2 corner = ImGui::GetCursorScreenPos();
  ImGui::Dummy(size);
  ImDrawList& draw = *ImGui::GetWindowDrawList();
  draw.AddRectFilled(corner, {corner.x + size.x, corner.y + size.y}, IM_COL32(255, 255, 255, 255));
  draw.AddRect(corner, {corner.x + size.x, corner.y + size.y}, IM_COL32(160, 160, 160, 255));
  if (history.size() < 2) return;
  const double t1 = history.back().time;
  const double t0 = std::min(windowStart(history.front().time, t1, window), t1 - 1e-9);
  AxisRange range;
  const auto samplesOf = [&](const Series& s) -> const std::deque<HistorySample>& { return s.samples ? *s.samples : history; };
  for (const Series& s : series) {
    for (const HistorySample& h : samplesOf(s)) {
      if (h.time >= t0 && h.time <= t1) range.add(axisCoordinate(s.value(h), logScale));
    }
  }
  if (range.empty()) {
    draw.AddText({corner.x + 8, corner.y + 8}, IM_COL32(120, 120, 120, 255), logScale ? "all zero" : "no values");
    return;
  }
  const AxisRange framed = range.framed(logScale);
  const double lo = framed.lo, hi = framed.hi;
  const float left = corner.x + 58.0f, right = corner.x + size.x - 6.0f, top = corner.y + 6.0f, bottom = corner.y + size.y - 18.0f;
  const auto at = [&](double t, double v) {
    return ImVec2(left + static_cast<float>((t - t0) / (t1 - t0)) * (right - left),
                  bottom - static_cast<float>((v - lo) / (hi - lo)) * (bottom - top));
  };
  for (const Series& s : series) {
    std::vector<ImVec2> points;
    for (const HistorySample& h : samplesOf(s)) {
      if (h.time < t0 || h.time > t1) continue;  // a ghost's samples outside the plot's time
      if (const std::optional<double> x = axisCoordinate(s.value(h), logScale)) points.push_back(at(h.time, *x));
    }
    draw.AddPolyline(points.data(), static_cast<int>(points.size()), s.colour, ImDrawFlags_None, 1.5f);
  }
  char label[48];
  const ImU32 ink = IM_COL32(60, 60, 60, 255);
  const auto valueLabel = [&](double x, float y) { draw.AddText({corner.x + 4, y - 7}, ink, axisLabel(x, logScale).c_str()); };
  valueLabel(hi, top + 7);
  valueLabel(lo, bottom - 7);
  std::snprintf(label, sizeof label, "%.2f s", t0);
  draw.AddText({left, bottom + 2}, ink, label);
  std::snprintf(label, sizeof label, "%.2f s   %s", t1, unit);
  draw.AddText({right - ImGui::CalcTextSize(label).x, bottom + 2}, ink, label);
}

template <class Kind, std::size_t N>
bool combo(const char* label, Kind& value, const std::pair<Kind, const char*> (&options)[N]) {
  int current = 0;
  for (std::size_t i = 0; i < N; ++i) {
    if (options[i].first == value) current = static_cast<int>(i);
  }
  bool changed = false;
  if (ImGui::BeginCombo(label, options[current].second)) {
    for (std::size_t i = 0; i < N; ++i) {
      if (ImGui::Selectable(options[i].second, static_cast<int>(i) == current)) {
        value = options[i].first;
        changed = true;
      }
    }
    ImGui::EndCombo();
  }
  return changed;
}

}  // namespace

void Studio::toolbar() {
  ImGui::SetNextWindowPos({0, 0});
  ImGui::SetNextWindowSize({static_cast<float>(window_.x()), static_cast<float>(layout::kToolbarHeight)});
  ImGui::Begin("##toolbar", nullptr, kFixed | ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_NoScrollbar);
  if (ImGui::Button("New")) whenDiscardable([this] { newCanvas(); });
  ImGui::SameLine();
  if (ImGui::Button("Open")) openDialog_ = true;
  ImGui::SameLine();
  if (ImGui::Button("Save")) save();
  ImGui::SameLine();
  if (ImGui::Button("Save As")) saveDialog_ = true;
  ImGui::SameLine(0, 18);
  ImGui::BeginDisabled(!document_.canUndo());
  if (ImGui::Button("Undo")) undo();
  ImGui::EndDisabled();
  ImGui::SameLine();
  ImGui::BeginDisabled(!document_.canRedo());
  if (ImGui::Button("Redo")) redo();
  ImGui::EndDisabled();
  ImGui::SameLine(0, 18);
  if (ImGui::Button(session_.playing() ? "Pause" : "Play ", {60, 0})) togglePlay();
  ImGui::SameLine();
  if (ImGui::Button("Step")) session_.step();
  ImGui::SameLine();
  if (ImGui::Button("Reset")) reset();
  ImGui::SameLine(0, 18);
  ImGui::Checkbox("Trails", &showTrails_);
  ImGui::SameLine();
  ImGui::Checkbox("Forces", &showForces_);
  ImGui::SameLine();
  ImGui::Checkbox("Contacts", &showContacts_);
  ImGui::SameLine();
  if (ImGui::Button("Help")) showHelp_ = !showHelp_;
  ImGui::SameLine(0, 18);
  if (ImGui::Button("Screenshot")) capture_.requestScreenshot(captureName());
  ImGui::SameLine();
  const bool recording = capture_.recording();
  if (recording) ImGui::PushStyleColor(ImGuiCol_Button, IM_COL32(230, 80, 70, 255));
  if (ImGui::Button(recording ? "Stop recording" : "Record")) capture_.toggleRecording(captureName());
  if (recording) ImGui::PopStyleColor();
  // The second row: the tools, in groups (drag; point masses; rigid bodies; contacts; delete), then what
  // the tool in hand builds with.
  for (const ToolInfo& t : kTools) {
    const bool groupStarts =
        t.tool == Tool::Particle || t.tool == Tool::Bar || t.tool == Tool::Box || t.tool == Tool::Delete;
    if (t.tool != Tool::Drag) ImGui::SameLine(0, groupStarts ? 18 : -1);
    const bool active = tool_ == t.tool;
    if (active) ImGui::PushStyleColor(ImGuiCol_Button, ImGui::GetStyleColorVec4(ImGuiCol_ButtonActive));
    if (ImGui::Button(t.label)) setTool(t.tool);
    if (active) ImGui::PopStyleColor();
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s (key %c): %s", t.label, t.key, t.help);
  }
  partOptions();
  ImGui::End();
}

void Studio::sidePanel() {
  const float top = static_cast<float>(layout::kToolbarHeight);
  ImGui::SetNextWindowPos({static_cast<float>(window_.x() - layout::kPanelWidth), top});
  ImGui::SetNextWindowSize({static_cast<float>(layout::kPanelWidth), static_cast<float>(window_.y()) - top -
                                                                       static_cast<float>(layout::kStatusHeight)});
  ImGui::Begin("##panel", nullptr, kFixed | ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_NoScrollbar);
  ImGui::PushItemWidth(160);
  // The plots keep the panel's foot, always in view; the inspector and the settings scroll above.
  // The work line wraps onto as many lines as the ledger has entries: the plots grow by them.
  const float wrap = ImGui::GetContentRegionAvail().x;
  const float ledgerLines = ImGui::CalcTextSize(ledgerText().c_str(), nullptr, false, wrap).y - ImGui::GetTextLineHeight();
  ImGui::BeginChild("##controls", {0, -(kPlotsHeight + std::max(0.0f, ledgerLines))});
  if (ImGui::CollapsingHeader("Inspector", ImGuiTreeNodeFlags_DefaultOpen)) inspector();
  if (ImGui::CollapsingHeader("Simulation", ImGuiTreeNodeFlags_DefaultOpen)) settingsPanel();
  if (openCompare_) {  // a comparison just started: its section shows its cost line
    ImGui::SetNextItemOpen(true);
    openCompare_ = false;
  }
  if (ImGui::CollapsingHeader("Compare")) comparePanel();
  ImGui::EndChild();
  ImGui::Separator();
  plots();
  ImGui::PopItemWidth();
  ImGui::End();
}

void Studio::settingsPanel() {
  SimulationSettings s = document_.scene().settings;
  bool changed = false;
  changed |= combo("formulation", s.formulation,
                   {{FormulationKind::Acceleration, "acceleration (Witkin)"}, {FormulationKind::Velocity, "velocity (impulses)"}});
  if (s.formulation == FormulationKind::Acceleration) {
    changed |= combo("integrator", s.integrator,
                     {{IntegratorKind::ExplicitEuler, "euler"}, {IntegratorKind::SymplecticEuler, "symplectic-euler"},
                      {IntegratorKind::Midpoint, "midpoint"}, {IntegratorKind::RungeKutta4, "rk4"},
                      {IntegratorKind::DormandPrince5, "dopri5"}, {IntegratorKind::Rattle, "rattle"}});
    if (s.integrator == IntegratorKind::DormandPrince5) {
      changed |= numberField("rtol", s.errorTolerance.relative);
      changed |= numberField("atol", s.errorTolerance.absolute);
    }
    changed |= combo("solver", s.solver.kind, {{SolverKind::ConjugateGradient, "cg"}, {SolverKind::SparseLdlt, "ldlt"}});
    changed |= numberField("ks (1/s²)", s.ks);
    changed |= numberField("kd (1/s)", s.kd);
    changed |= ImGui::Checkbox("project onto C = 0", &s.projection.enabled);
    if (s.solver.kind == SolverKind::ConjugateGradient) {
      ImGui::InputInt("CG iterations (0: n)", &s.solver.maxIterations);
      changed |= ImGui::IsItemDeactivatedAfterEdit();
    }
  } else {
    changed |= combo("solver", s.solver.kind,
                     {{SolverKind::SequentialImpulses, "sequential"}, {SolverKind::SparseLdlt, "ldlt"},
                      {SolverKind::ConjugateGradient, "cg"}});
    ImGui::InputInt("iterations", &s.velocity.iterations);
    changed |= ImGui::IsItemDeactivatedAfterEdit();
    ImGui::InputInt("substeps", &s.velocity.substeps);
    changed |= ImGui::IsItemDeactivatedAfterEdit();
    changed |= combo("scheme", s.velocity.scheme,
                     {{VelocityScheme::SymplecticEuler, "symplectic-euler"}, {VelocityScheme::Verlet, "verlet"}});
    changed |= ImGui::Checkbox("warm start", &s.velocity.warmStart);
    changed |= combo("drift", s.velocity.positionCorrection,
                     {{PositionCorrection::None, "none"}, {PositionCorrection::Baumgarte, "baumgarte"},
                      {PositionCorrection::Projection, "projection"}, {PositionCorrection::SoftStep, "soft"}});
    if (s.velocity.positionCorrection == PositionCorrection::SoftStep) {
      changed |= numberField("joint hertz", s.velocity.jointHertz);
      changed |= numberField("joint damping ratio", s.velocity.jointDampingRatio);
    }
    changed |= ImGui::Checkbox("collisions", &s.velocity.collisions);
    if (s.velocity.collisions) {
      changed |= numberField("friction", s.velocity.friction);
      changed |= numberField("restitution", s.velocity.restitution);
      if (s.velocity.positionCorrection == PositionCorrection::SoftStep) {
        changed |= numberField("contact hertz", s.velocity.contactHertz);
        changed |= numberField("contact damping ratio", s.velocity.contactDampingRatio);
      }
      changed |= ImGui::Checkbox("sleep", &s.velocity.sleep);
      if (s.velocity.sleep) {
        changed |= numberField("sleep speed (m/s)", s.velocity.sleepSpeed);
        changed |= numberField("sleep time (s)", s.velocity.sleepTime);
      }
    }
  }
  changed |= numberField("dt (s)", s.dt);
  if (changed) {
    try {
      s.validate();
      // What the file would then say, the loader must accept: the acceleration level has no
      // limits, motors, springs or ropes.
      const Model& model = document_.scene().model;
      for (std::size_t k = 0; k < model.constraintCount() && s.formulation == FormulationKind::Acceleration; ++k) {
        if (onlyEqualityRows(model.constraint(model.constraintAt(k)))) continue;
        throw std::invalid_argument(model.describe(model.constraintAt(k)) +
                                    " has a limit, motor, spring or rope, which only the velocity formulation solves");
      }
      document_.setSettings(s);
      session_.sync();
    } catch (const std::exception& e) {
      report(e.what(), true);
    }
  }
  float scale = static_cast<float>(session_.timeScale);
  if (ImGui::SliderFloat("time scale", &scale, 0.05f, 4.0f, "%.2f×", ImGuiSliderFlags_Logarithmic)) {
    session_.timeScale = scale;
  }
  // Gravity is part of the model (a force), so changing it is an edit.
  const Json gravity = document_.json()["gravity"];
  double g[3] = {0, 0, 0};
  for (std::size_t i = 0; i < gravity.size() && i < 3; ++i) g[i] = gravity[i].get<double>();
  ImGui::InputScalarN("gravity (m/s²)", ImGuiDataType_Double, g, static_cast<int>(gravity.size()), nullptr, nullptr, "%.4g");
  if (ImGui::IsItemDeactivatedAfterEdit()) {
    edit([&](Json& scene) { scene["gravity"] = std::vector<double>(g, g + gravity.size()); });
  }
}

void Studio::plots() {
  const auto& history = session_.history();
  // The plots' time window: the zoom on the time axis.
  constexpr std::pair<double, const char*> kWindows[] = {{2.0, "2 s"}, {5.0, "5 s"}, {10.0, "10 s"}, {30.0, "30 s"},
                                                         {INFINITY, "all (a minute)"}};
  const char* shown = "all (a minute)";
  for (const auto& [seconds, name] : kWindows) {
    if (seconds == plotWindow_) shown = name;
  }
  ImGui::SetNextItemWidth(140);
  if (ImGui::BeginCombo("plots show the last", shown)) {
    for (const auto& [seconds, name] : kWindows) {
      if (ImGui::Selectable(name, seconds == plotWindow_)) plotWindow_ = seconds;
    }
    ImGui::EndCombo();
  }
  // In compare mode the ghost's total energy, error and ‖C‖∞ join each plot, in the ghost's colour.
  const std::deque<HistorySample>* ghost = ghost_ ? &ghost_->history() : nullptr;
  const ImU32 ghostColour = IM_COL32(colours::kGhost.r, colours::kGhost.g, colours::kGhost.b, 255);
  const auto withGhost = [&](std::vector<Series> series, Series ghostSeries) {
    if (ghost) {
      ghostSeries.samples = ghost;
      series.push_back(std::move(ghostSeries));
    }
    return series;
  };
  plot("Energy:", history,
       withGhost({{"kinetic", IM_COL32(31, 119, 180, 255), [](const HistorySample& h) { return h.kinetic; }},
                  {"potential", IM_COL32(44, 160, 44, 255), [](const HistorySample& h) { return h.potential; }},
                  {"total", IM_COL32(40, 40, 40, 255), [](const HistorySample& h) { return h.total; }}},
                 {"ghost", ghostColour, [](const HistorySample& h) { return h.total; }}),
       false, "J", plotWindow_);
  // Drift, the work ledger and what is left, the numerical error, all from the plot's first sample.
  const HistorySample first = history.empty() ? HistorySample{} : history.front();
  const HistorySample ghostFirst = ghost && !ghost->empty() ? ghost->front() : HistorySample{};
  plot("Drift:", history,
       withGhost({{"E − E0", IM_COL32(214, 39, 40, 255), [first](const HistorySample& h) { return h.total - first.total; }},
                  {"work W", IM_COL32(140, 86, 75, 255), [first](const HistorySample& h) { return h.work - first.work; }},
                  {"error", IM_COL32(23, 190, 207, 255),
                   [first](const HistorySample& h) { return h.total - first.total - (h.work - first.work); }}},
                 {"ghost error", ghostColour,
                  [ghostFirst](const HistorySample& h) { return h.total - ghostFirst.total - (h.work - ghostFirst.work); }}),
       false, "J", plotWindow_);
  workLedger();
  plot("Constraint error (log scale):", history,
       withGhost({{"‖C‖∞", IM_COL32(148, 103, 189, 255), [](const HistorySample& h) { return h.constraintError; }}},
                 {"ghost", ghostColour, [](const HistorySample& h) { return h.constraintError; }}),
       true, "m", plotWindow_);
}

void Studio::workLedger() { ImGui::TextWrapped("%s", ledgerText().c_str()); }

// The ledger's entries that are not zero, on one line (wrapped where it is drawn).
std::string Studio::ledgerText() const {
  std::ostringstream line;
  line << std::setprecision(3) << "work:";
  const WorkLedger& work = session_.work();
  bool any = false;
  for (std::size_t k = 0; k < kWorkSources; ++k) {
    if (work.work[k] == 0.0) continue;
    line << (any ? "," : "") << ' ' << workSourceName(WorkSource(k)) << ' ' << work.work[k] << " J";
    any = true;
  }
  if (!any) line << " none (conservative)";
  return line.str();
}

void Studio::statusBar() {
  ImGui::SetNextWindowPos({0, static_cast<float>(window_.y() - layout::kStatusHeight)});
  ImGui::SetNextWindowSize({static_cast<float>(window_.x()), static_cast<float>(layout::kStatusHeight)});
  ImGui::Begin("##status", nullptr, kFixed | ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_NoScrollbar);
  const StepDiagnostics& d = session_.simulator().diagnostics();
  const Scene& scene = document_.scene();
  ImGui::Text("t = %.3f s  |  %s  |  %.0f steps/s, %.0f frames/s  |  %s  |  ‖C‖∞ %.2e  |  E %.6g J  |  "
              "tool: %s  |  %s%s",
              scene.model.time(), session_.playing() ? "running" : "paused", session_.stepsPerSecond(),
              static_cast<double>(ImGui::GetIO().Framerate), session_.solverReport().c_str(), d.constraintError, session_.history().empty() ? d.totalEnergy() : session_.history().back().total,
              toolInfo(tool_).label,
              document_.file() ? document_.file()->filename().string().c_str() : "untitled", document_.dirty() ? " *" : "");
  ImGui::End();
}

void Studio::helpOverlay() {
  if (!showHelp_) return;
  // Inside the canvas at any window size: the text wraps to the width, and what does not fit the
  // height scrolls.
  constexpr double kWidest = 720.0;  // px
  const layout::CanvasWindow place = layout::overCanvas(window_, kWidest);
  ImGui::SetNextWindowPos({static_cast<float>(place.center.x()), static_cast<float>(place.center.y())}, ImGuiCond_Always,
                          {0.5f, 0.5f});
  const auto width = static_cast<float>(place.size.x());
  ImGui::SetNextWindowSizeConstraints({width, 0.0f}, {width, static_cast<float>(place.size.y())});
  ImGui::Begin("Keys and mouse", &showHelp_,
               ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoMove);
  if (ImGui::BeginTable("keys", 2, ImGuiTableFlags_SizingFixedFit)) {
    ImGui::TableSetupColumn("key", ImGuiTableColumnFlags_WidthFixed);
    ImGui::TableSetupColumn("what", ImGuiTableColumnFlags_WidthStretch);
    const auto row = [](const char* key, const char* what) {
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(key);
      ImGui::TableNextColumn();
      ImGui::TextWrapped("%s", what);
    };
    row("Space", "play / pause");
    row("S", "one step");
    row("R", "reset to the state after the last edit");
    row("1 … 7", "tools: drag, particle, rod, spring, nail, wire, delete");
    row("B D J W M", "rigid-body tools: bar, disc, hinge (joint), weld, motor");
    row("X N G", "contact tools: box, polygon, ground (Enter ends its polyline)");
    row("Delete", "delete the selected item");
    row("Ctrl+Z / Ctrl+Y", "undo / redo (Ctrl+Shift+Z also redoes)");
    row("Ctrl+S / Ctrl+O / Ctrl+N", "save / open / new canvas");
    row("F", "frame the model");
    row("T / C", "trails / constraint-force arrows");
    row("K", "contact points and normals");
    row("V", "3D: view from the front, top, side or obliquely, in turn");
    row("O", "3D: perspective on or off (orthographic)");
    row("P", "trace the point last clicked (a particle, or any point of a rigid body)");
    row("F12 / F9", "screenshot / start or stop recording a video (PNG and MP4 in the working directory)");
    row("H or F1", "this help");
    row("Esc", "cancel the gesture, clear the selection");
    row("wheel", "zoom about the pointer");
    row("right drag", "3D: turn the view; 2D: pan");
    row("middle drag", "pan (left drag on empty space too, with the Drag tool)");
    ImGui::EndTable();
  }
  ImGui::Separator();
  for (const ToolInfo& t : kTools) {
    ImGui::Bullet();
    ImGui::TextWrapped("%s (%c): %s", t.label, t.key, t.help);
  }
  ImGui::End();
}

void Studio::messageBanner() {
  if (message_.empty()) return;
  ImGui::SetNextWindowPos({10, static_cast<float>(layout::kToolbarHeight) + 8});
  ImGui::SetNextWindowSizeConstraints({200, 0}, {static_cast<float>(window_.x() - layout::kPanelWidth - 20), 400});
  ImGui::PushStyleColor(ImGuiCol_WindowBg, messageIsError_ ? IM_COL32(255, 225, 225, 240) : IM_COL32(230, 240, 255, 240));
  ImGui::Begin("##message", nullptr, ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_AlwaysAutoResize |
                                         ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoFocusOnAppearing);
  if (messageIsError_) ImGui::TextColored({0.7f, 0.0f, 0.0f, 1.0f}, "Error");
  ImGui::PushTextWrapPos(static_cast<float>(window_.x() - layout::kPanelWidth - 60));
  ImFont* monospaced = monospacedFont();
  for (const MessageLine& line : messageLines(message_)) {
    if (line.code && monospaced) ImGui::PushFont(monospaced);
    ImGui::TextUnformatted(line.text.c_str());
    if (line.code && monospaced) ImGui::PopFont();
  }
  ImGui::PopTextWrapPos();
  if (ImGui::SmallButton("dismiss")) message_.clear();
  ImGui::End();
  ImGui::PopStyleColor();
}

}  // namespace tinkertoy::studio
