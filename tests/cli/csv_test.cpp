// CSV with ids that are the user's text (issue #16, class 7): a body id with a comma, a quote
// or a line break is quoted in the trajectory's header (RFC 4180), and `plot` reads it back.
#include <sstream>

#include "cli_fixture.hpp"
#include "csv.hpp"

namespace tinkertoy::cli {
namespace {

TEST(Csv, QuotesOnlyWhatNeedsQuotingAndReadsItBack) {
  EXPECT_EQ(csvField("plain.x"), "plain.x");
  EXPECT_EQ(csvField("a,b"), "\"a,b\"");
  EXPECT_EQ(csvField("say \"hi\""), "\"say \"\"hi\"\"\"");
  const std::vector<std::string> fields = {"time", "a,b", "say \"hi\"", "two\nlines", "", "cr\r"};
  std::ostringstream text;
  for (std::size_t k = 0; k < fields.size(); ++k) text << (k > 0 ? "," : "") << csvField(fields[k]);
  text << "\r\n1,2,3,4,5,6\n";
  std::istringstream in(text.str());
  std::size_t number = 1;
  EXPECT_EQ(readCsvRecord(in, number), fields);
  EXPECT_EQ(number, 3u) << "the record spans two lines";
  EXPECT_EQ(readCsvRecord(in, number), (std::vector<std::string>{"1", "2", "3", "4", "5", "6"}));
  EXPECT_FALSE(readCsvRecord(in, number));

  std::istringstream open("a,\"never closed\n1,2\n");
  number = 1;
  try {
    (void)readCsvRecord(open, number);
    ADD_FAILURE() << "an open quote was accepted";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("line 1: a quoted field is not closed"), std::string::npos) << e.what();
  }
}

// Lines are read in pieces: one longer than a piece (4096 bytes), one ending exactly at a piece's
// end, a last line without a line end, an empty line; and a record over the limit is refused.
TEST(Csv, ReadsLongLinesWholeAndRefusesARecordOverTheLimit) {
  const std::string longField(10000, 'x'), exact(4095, 'y');
  std::istringstream in(longField + ",1\n" + exact + "\n\n" + "last");
  std::size_t number = 1;
  EXPECT_EQ(readCsvRecord(in, number), (std::vector<std::string>{longField, "1"}));
  EXPECT_EQ(readCsvRecord(in, number), (std::vector<std::string>{exact}));
  EXPECT_EQ(readCsvRecord(in, number), (std::vector<std::string>{""}));
  EXPECT_EQ(readCsvRecord(in, number), (std::vector<std::string>{"last"}));
  EXPECT_FALSE(readCsvRecord(in, number));
  EXPECT_EQ(number, 5u);

  std::istringstream endless(std::string(kMaxCsvRecordBytes + 1, '\0'));
  number = 1;
  try {
    (void)readCsvRecord(endless, number);
    ADD_FAILURE() << "a record over the limit was accepted";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("line 1: a record longer than the limit of 64 MiB"), std::string::npos) << e.what();
  }
}

TEST_F(Cli, ATrajectoryWithAnOddIdIsReadBackByPlot) {
  const std::string scene = writeScene("odd.json", R"({"gravity": [0, 0], "particles": [
    {"id": "a,\"b\"\nc", "mass": 1, "position": [0, 0]}]})");
  ASSERT_EQ(tinkertoy({"run", scene, "--duration", "0.01", "--trajectory", file("t.csv")}).code, kSuccess);
  std::ifstream in(file("t.csv"));
  std::size_t line = 1;
  const auto header = readCsvRecord(in, line);
  ASSERT_TRUE(header);
  ASSERT_GE(header->size(), 3u);
  EXPECT_EQ((*header)[1], "a,\"b\"\nc.x");
  const auto row = readCsvRecord(in, line);
  ASSERT_TRUE(row);
  EXPECT_EQ(row->size(), header->size());
  const Result r = tinkertoy({"plot", file("t.csv"), "-o", file("t.svg")});
  EXPECT_EQ(r.code, kSuccess) << r.err;
}

}  // namespace
}  // namespace tinkertoy::cli
