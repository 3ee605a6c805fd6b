// The inspector's view of the selected item: a new selection is shown at once, paused or not,
// with the same revision and time (it used to keep the previous item's fields, so an edit went
// to the new item's path with the old item's fields); an edit and, while running, time are
// taken in; an unchanged item is not taken again.
#include <gtest/gtest.h>

#include "document.hpp"
#include "inspection.hpp"

namespace tinkertoy::studio {
namespace {

Document doublePendulum() {
  Document document;
  document.edit([](Json& scene) {
    scene["particles"] = Json::array({{{"id", "p1"}, {"mass", 1.0}, {"position", {0.0, 0.0}}},
                                      {{"id", "p2"}, {"mass", 2.0}, {"position", {0.0, -1.0}}},
                                      {{"id", "p3"}, {"mass", 3.0}, {"position", {0.0, -2.0}}}});
    scene["constraints"] = Json::array({{{"type", "distance"}, {"a", "p1"}, {"b", "p2"}},
                                        {{"type", "distance"}, {"a", "p2"}, {"b", "p3"}}});
  });
  return document;
}

TEST(Inspection, ANewSelectionIsShownAtOnceWhilePaused) {
  const Document document = doublePendulum();
  Inspection inspection;
  const Json rod = inspection.of(document, Json::json_pointer("/constraints/0"), false);
  EXPECT_EQ(rod.at("type"), "distance");
  const Json particle = inspection.of(document, Json::json_pointer("/particles/2"), false);
  EXPECT_EQ(particle.at("id"), "p3");
  EXPECT_EQ(particle.at("mass"), 3.0);
  EXPECT_FALSE(particle.contains("type")) << "the rod's fields shown for the particle";
}

TEST(Inspection, AnEditIsShownAndAnUnchangedItemIsKept) {
  Document document = doublePendulum();
  Inspection inspection;
  const Json::json_pointer p2("/particles/1");
  EXPECT_EQ(inspection.of(document, p2, false).at("mass"), 2.0);
  document.edit([](Json& scene) { scene["particles"][1]["mass"] = 5.0; });
  EXPECT_EQ(inspection.of(document, p2, false).at("mass"), 5.0);
  const Json* first = &inspection.of(document, p2, true);
  document.scene().model.setTime(document.scene().model.time() + 0.01);  // running, a short while
  EXPECT_EQ(&inspection.of(document, p2, true), first);
  EXPECT_EQ(inspection.of(document, p2, true).at("mass"), 5.0);
}

TEST(Inspection, WhileRunningTheStateIsTakenAFewTimesASecond) {
  Document document = doublePendulum();
  Inspection inspection;
  const Json::json_pointer p3("/particles/2");
  const double y = inspection.of(document, p3, true).at("position")[1];
  Model& model = document.scene().model;
  const BodyId bob = *model.findBody("p3");
  model.setCoordinates(bob, Eigen::Vector2d(0.5, -1.9));
  model.setTime(model.time() + 0.01);
  EXPECT_EQ(inspection.of(document, p3, true).at("position")[1], y) << "taken again every frame while running";
  model.setTime(model.time() + 0.2);
  EXPECT_EQ(inspection.of(document, p3, true).at("position")[0], 0.5);
  inspection.clear();
  model.setCoordinates(bob, Eigen::Vector2d(0.7, -1.9));
  EXPECT_EQ(inspection.of(document, p3, true).at("position")[0], 0.7) << "clear() forgets what was shown";
}

}  // namespace
}  // namespace tinkertoy::studio
