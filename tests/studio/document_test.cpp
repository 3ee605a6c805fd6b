// The Studio's document: edits are scene round trips that keep the running state, a refused
// edit changes nothing, undo and redo walk the history, reset returns to the last edit, and
// items map to their place in the scene file and back.
#include <gtest/gtest.h>

#include "document.hpp"
#include "support/scratch_directory.hpp"
#include "tinkertoy/forces/mouse_spring.hpp"

namespace tinkertoy::studio {
namespace {

void addParticle(Document& document, const std::string& id, double x, double y) {
  document.edit([&](Json& scene) { scene["particles"].push_back({{"id", id}, {"mass", 1.0}, {"position", {x, y}}}); });
}

TEST(Document, StartsEmptyAndEditsThroughTheSceneFormat) {
  Document document;
  EXPECT_EQ(document.scene().model.bodyCount(), 0u);
  EXPECT_FALSE(document.dirty());
  addParticle(document, "a", 0, 0);
  addParticle(document, "b", 1, 0);
  document.edit([](Json& scene) { scene["constraints"].push_back({{"type", "distance"}, {"a", "a"}, {"b", "b"}}); });
  EXPECT_TRUE(document.dirty());
  EXPECT_EQ(document.scene().model.bodyCount(), 2u);
  EXPECT_EQ(document.scene().model.constraintCount(), 1u);
}

TEST(Document, ARefusedEditChangesNothing) {
  Document document;
  addParticle(document, "a", 0, 0);
  const std::string before = document.text();
  const std::uint64_t revision = document.revision();
  EXPECT_THROW(document.edit([](Json& scene) { scene["particles"][0]["mass"] = -1.0; }), SceneError);
  EXPECT_THROW(addParticle(document, "a", 1, 1), SceneError);  // a duplicate id
  EXPECT_EQ(document.text(), before);
  EXPECT_EQ(document.revision(), revision);
}

TEST(Document, EditsKeepTheRunningState) {
  Document document;
  addParticle(document, "a", 0, 0);
  Model& model = document.scene().model;
  {
    Simulator simulator(model, document.scene().settings);
    for (int i = 0; i < 60; ++i) simulator.step();
  }
  const Eigen::VectorXd q = document.scene().model.q(), v = document.scene().model.v();
  ASSERT_LT(q[1], -0.1);  // it fell
  addParticle(document, "b", 5, 5);
  EXPECT_EQ(document.scene().model.q().head(2), q);
  EXPECT_EQ(document.scene().model.v().head(2), v);
}

TEST(Document, UndoRedoAndReset) {
  Document document;
  addParticle(document, "a", 0, 0);
  addParticle(document, "b", 1, 0);
  document.undo();
  EXPECT_EQ(document.scene().model.bodyCount(), 1u);
  document.redo();
  EXPECT_EQ(document.scene().model.bodyCount(), 2u);
  EXPECT_FALSE(document.canRedo());
  // A move made through the library and recorded is undone like an edit.
  const std::string before = document.text();
  document.scene().model.setPosition(*document.scene().model.findBody("b"), Eigen::Vector2d(3, 4));
  document.recordChange(before);
  document.undo();
  EXPECT_EQ(document.scene().model.position(*document.scene().model.findBody("b")), Eigen::Vector2d(1, 0));
  document.redo();
  // Reset returns to the state after the last change, whatever ran since.
  document.scene().model.setPosition(*document.scene().model.findBody("b"), Eigen::Vector2d(9, 9));
  document.reset();
  EXPECT_EQ(document.scene().model.position(*document.scene().model.findBody("b")), Eigen::Vector2d(3, 4));
}

// Undo then redo after running restores the state right after the edit, not the state the run
// reached (issue #15: a swung double pendulum came back relabelled t = 0, 72.98 J for 29.43 J).
TEST(Document, RedoAfterRunningRestoresTheStateRightAfterTheEdit) {
  Document document;
  addParticle(document, "a", 0, 0);
  addParticle(document, "b", 1, 0);
  const std::string afterEdit = document.text();
  {
    Simulator simulator(document.scene().model, document.scene().settings);
    for (int i = 0; i < 60; ++i) simulator.step();
  }
  ASSERT_NE(document.text(), afterEdit) << "the run must have moved the model";
  document.undo();
  EXPECT_EQ(document.scene().model.bodyCount(), 1u);
  document.redo();
  EXPECT_EQ(document.text(), afterEdit);
  EXPECT_EQ(document.scene().model.v(), Eigen::VectorXd::Zero(4));
}

// A settings change is an edit: undo restores the settings before it, redo the change.
TEST(Document, UndoCoversSettings) {
  Document document;
  addParticle(document, "a", 0, 0);
  SimulationSettings settings = document.scene().settings;
  const IntegratorKind before = settings.integrator;
  settings.integrator = IntegratorKind::Midpoint;
  document.setSettings(settings);
  EXPECT_TRUE(document.canUndo());
  EXPECT_TRUE(document.dirty());
  document.undo();
  EXPECT_EQ(document.scene().settings.integrator, before);
  EXPECT_EQ(document.scene().model.bodyCount(), 1u);
  document.redo();
  EXPECT_EQ(document.scene().settings.integrator, IntegratorKind::Midpoint);
  document.reset();
  EXPECT_EQ(document.scene().settings.integrator, IntegratorKind::Midpoint) << "reset keeps the settings";
}

TEST(Document, LocatesItemsInTheSceneFileAndFindsThemAgain) {
  Document document;
  document.open(std::filesystem::path(TINKERTOY_SOURCE_DIR) / "scenes" / "hybrid.json");
  const Model& model = document.scene().model;
  const Json json = document.json();
  for (std::size_t i = 0; i < model.bodyCount(); ++i) {
    const BodyId id = model.bodyAt(i);
    const auto pointer = document.locate(id);
    ASSERT_TRUE(pointer);
    EXPECT_EQ(json[*pointer]["id"], model.name(id));
    EXPECT_EQ(std::get<BodyId>(document.find(*pointer)), id);
  }
  for (std::size_t i = 0; i < model.constraintCount(); ++i) {
    const auto pointer = document.locate(model.constraintAt(i));
    ASSERT_TRUE(pointer);
    EXPECT_EQ(json[*pointer]["type"], model.constraint(model.constraintAt(i)).type());
    EXPECT_EQ(std::get<ConstraintId>(document.find(*pointer)), model.constraintAt(i));
  }
  // Gravity is not an entry of "forces"; the springs are, in order.
  std::size_t written = 0;
  for (std::size_t i = 0; i < model.forceCount(); ++i) {
    if (const auto pointer = document.locate(model.forceAt(i))) {
      EXPECT_EQ(pointer->to_string(), "/forces/" + std::to_string(written++));
      EXPECT_EQ(std::get<ForceId>(document.find(*pointer)), model.forceAt(i));
    }
  }
  EXPECT_EQ(written, json["forces"].size());
}

TEST(Document, SavesTheModelAsBuiltAndRefusesAnUnwritablePath) {
  Document document;
  addParticle(document, "a", 0, 0);
  document.scene().model.setPosition(*document.scene().model.findBody("a"), Eigen::Vector2d(0, -7));  // as if run
  const testing_support::ScratchDirectory scratch;
  const std::filesystem::path file = scratch.path() / "document.json";
  document.saveAs(file);
  EXPECT_FALSE(document.dirty());
  EXPECT_EQ(loadScene(file).model.position(*loadScene(file).model.findBody("a")), Eigen::Vector2d(0, 0));
  EXPECT_THROW(document.saveAs("/no/such/directory/x.json"), SceneError);
  Document unnamed;
  EXPECT_THROW(unnamed.save(), SceneError);
}

TEST(Document, OpeningABadFileKeepsTheDocument) {
  Document document;
  addParticle(document, "a", 0, 0);
  EXPECT_THROW(document.open("/no/such/scene.json"), SceneError);
  EXPECT_EQ(document.scene().model.bodyCount(), 1u);
  EXPECT_TRUE(document.dirty());
}

// Undoing back to the state that was saved leaves nothing unsaved (the file used to stay marked
// modified), and so does an edit that puts a value back; a real change is unsaved again.
TEST(Document, UndoingBackToTheSavedStateIsNotAChange) {
  Document document;
  addParticle(document, "a", 0, 0);
  const testing_support::ScratchDirectory scratch;
  const std::filesystem::path file = scratch.path() / "saved.json";
  document.saveAs(file);
  document.open(file);
  EXPECT_FALSE(document.dirty());
  document.edit([](Json& scene) { scene["particles"][0]["mass"] = 2.0; });
  EXPECT_TRUE(document.dirty());
  document.undo();
  EXPECT_FALSE(document.dirty());
  document.redo();
  EXPECT_TRUE(document.dirty());
  document.edit([](Json& scene) { scene["particles"][0]["mass"] = 1.0; });
  EXPECT_FALSE(document.dirty()) << "the mass is back to what was saved";
  document.scene().model.setPosition(*document.scene().model.findBody("a"), Eigen::Vector2d(0, -7));  // a run
  EXPECT_FALSE(document.dirty()) << "running is not editing";
}

}  // namespace
}  // namespace tinkertoy::studio
