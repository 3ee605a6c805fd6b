// `tinkertoy render`, what a picture shows besides the model at one moment: strobes (their
// spacing and periods), trails (all, or of chosen points), the framing when a body leaves for
// good, and 3D scenes seen through a view direction. Worked out by hand with the framing rule
// of render_fixture.hpp.
#include <cstdio>
#include <fstream>
#include <tuple>

#include "recording.hpp"
#include "render_command.hpp"
#include "render_fixture.hpp"

namespace tinkertoy::cli {
namespace {

// ---- A strobe ---------------------------------------------------------------------------

// A ball thrown sideways at 1 m/s from the origin (rk4 is exact for constant gravity):
// x = t, y = −½ g t². --time 1 --exposures 5 spreads over the default span of 1 s ending at
// t = 1: t_j = 1·j/4 = 0, 0.25, 0.5, 0.75, 1 s, at
//   (0, 0), (0.25, −0.3066), (0.5, −1.2263), (0.75, −2.7591), (1, −4.905).
// Bounds x ∈ [0, 1], y ∈ [−4.905, 0], centre (0.5, −2.4525). 400×400: viewport 400 × 370,
// scale = min(352/1, 325.6/4.905) = 66.381 px/m, pixel = (200 + 66.381 (x − 0.5), 185 − 66.381 (y + 2.4525)):
//   j = 0: (166.81, 22.20)   j = 1: (183.40, 42.55)   j = 2: (200.00, 103.60)
//   j = 3: (216.60, 205.35)  j = 4: (233.19, 347.80)
// Exposure j of 5 is drawn at opacity 1 − 0.8 (4 − j)/4 = 0.2, 0.4, 0.6, 0.8, 1 over the background.
TEST_F(Render, ExposuresShowAStrobeOfAFallingParticle) {
  const std::string scene = writeScene("throw.json", R"({"settings": {"duration": 3},
      "particles": [{"id": "ball", "mass": 1, "position": [0, 0], "velocity": [1, 0]}]})");
  const std::string png = output("strobe.png");
  const Result r =
      tinkertoy({"render", scene, "--time", "1", "--exposures", "5", "--size", "400x400", "-o", png});
  ASSERT_EQ(r.code, kSuccess) << r.err;
  EXPECT_TRUE(contains(r.out, "5 exposures")) << r.out;
  const Picture picture(png);
  ASSERT_TRUE(picture.ok());
  const std::pair<int, int> dots[] = {{166, 22}, {183, 42}, {200, 103}, {216, 205}, {233, 347}};
  for (int j = 0; j < 5; ++j) {
    const double opacity = 1.0 - 0.8 * (4 - j) / 4.0;
    const auto [x, y] = dots[j];
    EXPECT_TRUE(isColour(picture.at(x, y), over(kDot, opacity, kBackground)))
        << "exposure " << j << " at " << x << ", " << y;
  }
  // The first exposure is fainter than a dot: (203, 207, 212), lighter in every channel.
  const Rgb first = picture.at(166, 22);
  EXPECT_GT(first.r, kDot.r + 100);
  EXPECT_GT(first.g, kDot.g + 100);
  EXPECT_GT(first.b, kDot.b + 100);
  // Between the last two exposures, (224.9, 276.6), 70 px from each: background.
  EXPECT_TRUE(isColour(picture.at(224, 276), kBackground));
}

// The spacing rule: exposures evenly over the span ending at --time; the span is --span, else
// the scene's period, else 1 s, at most the time itself; with a period P at most P (K − 1)/K,
// so no two exposures are a whole period apart.
TEST(StrobeTimes, SpreadOverTheSpanEndingAtTheTime) {
  const auto expectTimes = [](const std::vector<double>& actual, const std::vector<double>& expected) {
    ASSERT_EQ(actual.size(), expected.size());
    for (std::size_t j = 0; j < expected.size(); ++j) EXPECT_NEAR(actual[j], expected[j], 1e-12) << j;
  };
  expectTimes(strobeTimes(5, 3.0, std::nullopt, std::nullopt), {2.0, 2.25, 2.5, 2.75, 3.0});
  expectTimes(strobeTimes(3, 3.0, 2.0, std::nullopt), {1.0, 2.0, 3.0});
  expectTimes(strobeTimes(3, 0.5, std::nullopt, std::nullopt), {0.0, 0.25, 0.5});  // the span fits the time
  expectTimes(strobeTimes(4, 10.0, std::nullopt, 2.0), {8.5, 9.0, 9.5, 10.0});      // a period P: P/K apart
  expectTimes(strobeTimes(4, 10.0, 5.0, 2.0), {8.5, 9.0, 9.5, 10.0});               // a longer span is capped
  expectTimes(strobeTimes(4, 10.0, 0.3, 2.0), {9.7, 9.8, 9.9, 10.0});               // a shorter one is kept
  // 1 rev/s sampled at whole seconds, the aliasing the rule prevents: any span, any K.
  for (const double span : {1.0, 2.0, 3.0, 7.5}) {
    for (int k = 2; k <= 12; ++k) {
      const std::vector<double> t = strobeTimes(k, 20.0, span, 1.0);
      for (std::size_t i = 0; i < t.size(); ++i) {
        for (std::size_t j = i + 1; j < t.size(); ++j) {
          const double periods = t[j] - t[i];
          EXPECT_GT(std::abs(periods - std::round(periods)), 1e-9) << "span " << span << ", K = " << k;
        }
      }
    }
  }
}

// The shipped motor-driven linkages declare their period: the strandbeest's crank turns at
// 1 rev/s, the four-bar's at ½ rev/s. A strobe of either shows K phases of one period (not K
// copies of one pose, as exposures a whole period apart would), and the state one period on
// is the same state (the motors hold their speed to a few millimetres).
TEST_F(Render, StrobesOfTheShippedLinkagesShowOnePeriod) {
  for (const auto& [name, period, spacing] : {std::tuple{"strandbeest", 1.0, "every 0.125 s"},
                                              std::tuple{"four_bar", 2.0, "every 0.25 s"}}) {
    const std::string scene = kScenes + name + ".json";
    const Result r = tinkertoy({"render", scene, "--exposures", "8", "--size", "320x240", "-o", output("strobe.png")});
    ASSERT_EQ(r.code, kSuccess) << r.err;
    EXPECT_TRUE(contains(r.out, spacing)) << r.out;
    // The state after one more period.
    const auto finalState = [&](double duration) {
      const std::string summary = output(std::string(name) + std::to_string(duration) + ".json");
      const Result run = tinkertoy({"run", scene, "--duration", std::to_string(duration), "--summary", summary});
      EXPECT_EQ(run.code, kSuccess) << run.err;
      std::ifstream in(summary);
      return nlohmann::json::parse(in)["final_state"];
    };
    const nlohmann::json before = finalState(3.0), after = finalState(3.0 + period);
    for (const auto& [body, state] : before.items()) {
      for (int i = 0; i < 2; ++i) {
        EXPECT_NEAR(state["position"][i].get<double>(), after[body]["position"][i].get<double>(), 3e-3) << name << " " << body;
      }
    }
  }
}

// ---- Trails -----------------------------------------------------------------------------

// A ball thrown sideways at 2 m/s: x = 2t, y = −4.905 t², shown at --time 0.5 at (1, −1.22625).
// A post nailed at the origin, where the ball starts, makes the framing the same with and
// without the trail (which adds nothing outside the box from the post to the ball), so the
// picture without --trails is the control for the same pixels.
// Bounds: x ∈ [0, 1], y ∈ [−1.22625, 0], centre
// (0.5, −0.613125). 400×400: scale = min(352/1, 325.6/1.22625) = 265.525 px/m,
// pixel = (200 + 265.525 (x − 0.5), 185 − 265.525 (y + 0.613125)). Along the path:
//   t = 0.1: (0.2, −0.04905) → (120.34, 35.22)     t = 0.2: (0.4, −0.1962) → (173.45, 74.30)
//   t = 0.3: (0.6, −0.44145) → (226.55, 139.42)    t = 0.4: (0.8, −0.7848) → (279.66, 230.58)
// and the dot at t = 0.5: (332.76, 347.80). The trail is kTrail (190, 60, 150) at alpha
// 200/255, magenta over the grey-white background, (202, 100, 170): red − green > 60 where it
// covers a pixel (0 on the background; rods in compression are blue, not this). The same trail
// is drawn for --trail-point ball, and none along the path for --trail-point post.
TEST_F(Render, TrailsDrawTheProjectilesPath) {
  const std::string scene = writeScene("throw.json", R"({"settings": {"duration": 3},
      "particles": [{"id": "ball", "mass": 1, "position": [0, 0], "velocity": [2, 0]},
                    {"id": "post", "mass": 1, "position": [0, 0]}],
      "constraints": [{"type": "fixed", "particle": "post"}]})");
  const std::pair<double, double> path[] = {{120.34, 35.22}, {173.45, 74.30}, {226.55, 139.42}, {279.66, 230.58}};
  // The most magenta pixel in the 3×3 block around the point: red − green.
  const auto tint = [](const Picture& picture, double px, double py) {
    int most = -255;
    const int cx = static_cast<int>(std::floor(px)), cy = static_cast<int>(std::floor(py));
    for (int y = cy - 1; y <= cy + 1; ++y) {
      for (int x = cx - 1; x <= cx + 1; ++x) most = std::max(most, picture.at(x, y).r - picture.at(x, y).g);
    }
    return most;
  };
  const std::pair<std::vector<std::string>, bool> cases[] = {
      {{"--trails"}, true}, {{}, false}, {{"--trail-point", "ball"}, true}, {{"--trail-point", "post"}, false}};
  for (const auto& [flags, drawn] : cases) {
    SCOPED_TRACE(flags.empty() ? std::string("no trails") : flags.back());
    const std::string png = output("trails.png");
    std::vector<std::string> args = {"render", scene, "--time", "0.5", "--size", "400x400", "-o", png};
    args.insert(args.end(), flags.begin(), flags.end());
    const Result r = tinkertoy(args);
    ASSERT_EQ(r.code, kSuccess) << r.err;
    const Picture picture(png);
    ASSERT_TRUE(picture.ok());
    EXPECT_TRUE(isColour(picture.at(332, 347), kDot));
    for (const auto& [px, py] : path) {
      if (drawn) {
        EXPECT_GT(tint(picture, px, py), 60) << "no trail at " << px << ", " << py;
      } else {
        EXPECT_EQ(tint(picture, px, py), kBackground.r - kBackground.g) << "something at " << px << ", " << py;
      }
    }
  }
}

// A point of a rigid body: BODY:X,Y in its frame, checked against the model, with the reasons
// for a name that is not there (and the likely one), a point on a body with no frame, and
// coordinates that are not numbers.
TEST(TracedPoint, NamesABodysPointOrSaysWhy) {
  const Scene scene = parseScene(R"({"settings": {"formulation": "velocity"},
      "particles": [{"id": "ball", "mass": 1, "position": [0, 0]}],
      "bodies": [{"id": "arm", "type": "rigid", "mass": 1, "position": [1, 0], "shape": {"type": "box", "size": [2, 0.1]}},
                 {"id": "chain", "type": "chain", "pivot": [0, 0], "lengths": [1, 1], "masses": [1, 1], "angles": [0, 0]}]})");
  const Model& model = scene.model;
  EXPECT_EQ(tracedPoint(model, "ball"), BodyPoint(*model.findBody("ball")));
  EXPECT_EQ(tracedPoint(model, "arm"), BodyPoint(*model.findBody("arm")));
  EXPECT_EQ(tracedPoint(model, "arm:1,-0.05"), BodyPoint(*model.findBody("arm"), Eigen::Vector2d(1, -0.05)));
  EXPECT_EQ(tracedPoint(model, "chain"), BodyPoint(*model.findBody("chain"), 1)) << "a chain's tip";
  const auto reason = [&](const std::string& text) {
    try {
      (void)tracedPoint(model, text);
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  EXPECT_EQ(reason("bal"), "no body 'bal' in the scene; did you mean 'ball'?");
  EXPECT_NE(reason("ball:1,0").find("has no frame"), std::string::npos);
  EXPECT_NE(reason("arm:1").find("expected BODY:X,Y"), std::string::npos);
  EXPECT_NE(reason("arm:1,x").find("expected BODY:X,Y"), std::string::npos);
  EXPECT_NE(reason("arm:nan,0").find("expected BODY:X,Y"), std::string::npos);
}

// Trails are bounded in memory: a run with more steps × trails than maxTrailPoints keeps every
// k-th step's points, k the least that fits. Two particles, 1000 steps of 0.01 s: every step
// would make 2002 points (the start too); a budget of 500 keeps every 4th step, 251 points each.
TEST(Recording, TrailsKeepAtMostTheirBudgetOfPointsEvenlyInSteps) {
  SceneRun run(parseScene(R"({"settings": {"dt": 0.01, "duration": 10},
      "particles": [{"id": "a", "mass": 1, "position": [0, 0]}, {"id": "b", "mass": 1, "position": [1, 0]}]})"));
  std::ostringstream quiet;
  ProgressBar progress(quiet, false, "", 1000);
  const std::vector<double> times = {10.0};
  const Recording recording = record(run, times, 10.0, {.trails = true, .trailInterval = 0.01, .maxTrailPoints = 500}, progress);
  ASSERT_EQ(recording.trails.size(), 2u);
  for (const Trail& trail : recording.trails) {
    ASSERT_EQ(trail.times.size(), 251u);
    EXPECT_NEAR(trail.times[1] - trail.times[0], 0.04, 1e-12);
    EXPECT_NEAR(trail.times.back(), 10.0, 1e-9);
  }
}

// ---- Framing and 3D views ---------------------------------------------------------------

// A body that leaves for good is named and left out of the framing. A nailed rod stays from
// (0, 0) to (1, 0) while a stone thrown from (0, 1) ends at (50, 1): outside the square of
// side 4 m about the start's centre (the start spans 1 m). The picture frames the rod alone:
// 1 m wide (its height 0), scale 0.88 × 640 px/m, centre (0.5, 0), so the bob at (1, 0) is at
// pixel (601.6, 225). Framing the stone too would put the bob near the left edge. A stone
// thrown alone is the whole motion: framed, no warning.
TEST_F(Render, ABodyThatLeavesForGoodIsNamedAndNotFramed) {
  const std::string scene = writeScene("thrown.json", R"({"gravity": [0, 0], "settings": {"duration": 1},
      "particles": [{"id": "pivot", "mass": 1, "position": [0, 0]}, {"id": "bob", "mass": 1, "position": [1, 0]},
                    {"id": "stone", "mass": 1, "position": [0, 1], "velocity": [50, 0]}],
      "constraints": [{"type": "fixed", "particle": "pivot"}, {"type": "distance", "a": "pivot", "b": "bob"}]})");
  const std::string png = output("thrown.png");
  Result r = tinkertoy({"render", scene, "--size", "640x480", "-o", png});
  ASSERT_EQ(r.code, kSuccess) << r.err;
  EXPECT_TRUE(contains(r.err, "warning: particle 'stone' leaves the model's neighbourhood for good")) << r.err;
  EXPECT_FALSE(contains(r.err, "'bob'")) << r.err;
  const Picture picture(png);
  ASSERT_TRUE(picture.ok());
  EXPECT_TRUE(isColour(picture.at(601, 225), kDot));

  const std::string alone = writeScene("alone.json", R"({"gravity": [0, 0], "settings": {"duration": 1},
      "particles": [{"id": "stone", "mass": 1, "position": [0, 1], "velocity": [50, 0]}]})");
  r = tinkertoy({"render", alone, "--size", "640x480", "-o", png, "--trails"});
  ASSERT_EQ(r.code, kSuccess) << r.err;
  EXPECT_FALSE(contains(r.err, "warning")) << r.err;
  // The path from (0, 1) to (50, 1) fills the width: the stone ends at 320 + 0.88 × 320 px.
  EXPECT_TRUE(isColour(Picture(png).at(601, 225), kDot));
}

// The shipped hybrid scene stays a mechanism for its whole 10 s: nothing leaves.
TEST_F(Render, TheHybridSceneStaysTogether) {
  const Result r = tinkertoy({"render", kScenes + "hybrid.json", "--size", "320x240", "-o", output("hybrid.png")});
  ASSERT_EQ(r.code, kSuccess) << r.err;
  EXPECT_FALSE(contains(r.err, "leaves")) << r.err;
}

// A 3D scene is seen obliquely by default, and the nearer of two marks is drawn over the
// farther. Two particles 1 m apart along the oblique view's line of sight fall on one picture
// point, which the framing rule puts at the middle of the viewport (320, 225) of a 640×480
// picture; the front one is drawn in full colour, the back one faded 60% into the background
// (style.hpp, atDepth). From the front they are apart, and the middle pixel is background.
TEST_F(Render, A3DSceneIsSeenObliquelyNearOverFar) {
  const Eigen::Vector3d toward = ViewDirection::oblique().toward();
  char text[512];
  std::snprintf(text, sizeof text, R"({"dimension": 3, "gravity": [0, 0, 0], "settings": {"duration": 0.01},
      "particles": [{"id": "back", "mass": 1, "position": [0, 0, 0]},
                    {"id": "front", "mass": 1, "position": [%.17g, %.17g, %.17g]}]})",
                toward.x(), toward.y(), toward.z());
  const std::string scene = writeScene("depth.json", text);
  const Rgb faded = over(kBackground, 0.6, kDot);
  const auto middle = [&](const std::vector<std::string>& extra) {
    std::vector<std::string> args{"render", scene, "--size", "640x480", "-o", output("depth.png")};
    args.insert(args.end(), extra.begin(), extra.end());
    const Result r = tinkertoy(args);
    EXPECT_EQ(r.code, kSuccess) << r.err;
    const Picture picture(output("depth.png"));
    return picture.ok() ? picture.at(320, 225) : Rgb{};
  };
  EXPECT_TRUE(isColour(middle({}), kDot, 2)) << "the front particle is on top";
  EXPECT_FALSE(near(middle({}), faded, 2));
  EXPECT_TRUE(isColour(middle({"--camera", "35,25"}), kDot, 2)) << "--camera 35,25 is the oblique view";
  EXPECT_TRUE(isColour(middle({"--view", "front"}), kBackground));
  // From exactly behind, the particle listed first is the nearer: drawing in the listed order
  // would leave the faded one on top.
  char behind[32];
  std::snprintf(behind, sizeof behind, "%.17g,%.17g", 35.0 + 180.0, -25.0);
  EXPECT_TRUE(isColour(middle({"--camera", behind}), kDot, 2));
}

// Perspective from the front on four particles at the corners of a 2 m square in the x–z plane:
// orthographically the back pair hides behind the front pair; in perspective the eye stands
// D = 2.5 × 2√2 m from the middle, so the back pair (1 m farther than the middle) is drawn at
// (D / (D + 1)) / (D / (D − 1)) = (D − 1)/(D + 1) = 0.752 of the front pair's distance from the
// middle of the picture, and shows as two more dots along the middle row.
TEST_F(Render, PerspectiveDrawsTheFarPairCloserTogether) {
  const std::string scene = writeScene("square.json", R"({"dimension": 3, "gravity": [0, 0, 0],
      "settings": {"duration": 0.01}, "particles": [
      {"id": "a", "mass": 1, "position": [-1, 0, 1]}, {"id": "b", "mass": 1, "position": [1, 0, 1]},
      {"id": "c", "mass": 1, "position": [-1, 0, -1]}, {"id": "d", "mass": 1, "position": [1, 0, -1]}]})");
  // The middles of the runs of non-background pixels along the picture's middle row, px.
  const auto dots = [&](const std::vector<std::string>& extra) {
    std::vector<std::string> args{"render", scene, "--size", "640x480", "--view", "front", "-o", output("square.png")};
    args.insert(args.end(), extra.begin(), extra.end());
    const Result r = tinkertoy(args);
    EXPECT_EQ(r.code, kSuccess) << r.err;
    const Picture picture(output("square.png"));
    std::vector<double> middles;
    int start = -1;
    for (int x = 0; x <= 640 && picture.ok(); ++x) {
      const bool ink = x < 640 && !near(picture.at(x, 225), kBackground, 8);
      if (ink && start < 0) start = x;
      if (!ink && start >= 0) middles.push_back(0.5 * (start + x - 1)), start = -1;
    }
    return middles;
  };
  EXPECT_EQ(dots({}).size(), 2u) << "orthographically the back pair hides behind the front";
  const std::vector<double> deep = dots({"--perspective"});
  ASSERT_EQ(deep.size(), 4u);
  const double d = 2.5 * std::sqrt(8.0), expected = (d - 1.0) / (d + 1.0);
  EXPECT_NEAR((deep[2] - deep[1]) / (deep[3] - deep[0]), expected, 0.01);
}

}  // namespace
}  // namespace tinkertoy::cli
