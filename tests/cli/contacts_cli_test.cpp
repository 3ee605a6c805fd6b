// The command line on a scene with contacts: the summary's contact line and JSON keys, which a
// scene without contacts does not have.
#include "cli_fixture.hpp"

namespace tinkertoy::cli {
namespace {

TEST_F(Cli, RunReportsTheContactsOfAScene) {
  const Result r = tinkertoy({"run", kScenes + "contacts.json", "--duration", "2", "--summary", file("s.json")});
  ASSERT_EQ(r.code, kSuccess) << r.err;
  EXPECT_NE(r.out.find("contacts     up to "), std::string::npos) << r.out;
  const nlohmann::json s = readJson(file("s.json"));
  EXPECT_GE(s["contacts_max"].get<int>(), 8) << "every body on something";
  const double deepest = s["penetration_max"].get<double>();
  EXPECT_GT(deepest, 0.0);
  EXPECT_LT(deepest, 0.02) << "no body sinks into another by more than a speculative landing";
  EXPECT_LT(s["work"]["impulses"].get<double>(), -1.0) << "landing and sliding take energy, booked";
  EXPECT_LT(s["energy_error_max"].get<double>(), 0.01 * s["energy_drift_max"].get<double>());
  const Result plain = tinkertoy({"run", kScenes + "pendulum.json", "--duration", "0.1", "--summary", file("p.json")});
  ASSERT_EQ(plain.code, kSuccess) << plain.err;
  EXPECT_EQ(plain.out.find("contacts"), std::string::npos);
  EXPECT_FALSE(readJson(file("p.json")).contains("contacts_max"));
  // A flag that does not solve contacts is refused by its name.
  const Result projected = tinkertoy({"run", kScenes + "contacts.json", "--position-correction", "projection"});
  EXPECT_EQ(projected.code, kBadInput);
  EXPECT_NE(projected.err.find("--position-correction: the projection does not hold contacts yet"), std::string::npos)
      << projected.err;
}

}  // namespace
}  // namespace tinkertoy::cli
