// InputOrder (apps/studio/input_order.hpp): the input between two frames reaches the frames in
// the order it came, one mouse button change a frame, the keys that followed a change a frame later.
#include "input_order.hpp"

#include <gtest/gtest.h>

namespace tinkertoy::studio {
namespace {

constexpr InputOrder::Key kFive{'5', false, false};
constexpr InputOrder::Key kThree{'3', false, false};

TEST(InputOrder, AReleaseAKeyAndAClickBetweenTwoFramesReachThreeFramesInOrder) {
  // The end of a drag, the Nail key and a click on the pivot, all before the page drew again.
  InputOrder input;
  input.button(0, false, {400, 450});
  input.key(kFive);
  input.button(0, true, {400, 250});
  input.button(0, false, {400, 250});

  const InputOrder::Frame first = input.take();  // the drag ends where it was let go, under the old tool
  EXPECT_TRUE(first.keys.empty());
  ASSERT_TRUE(first.buttons);
  EXPECT_FALSE(first.buttons->down[0]);
  EXPECT_EQ(first.buttons->at->y, 450.0f);

  const InputOrder::Frame second = input.take();  // the key, then the press on the pivot
  ASSERT_EQ(second.keys.size(), 1u);
  EXPECT_EQ(second.keys[0].key, '5');
  ASSERT_TRUE(second.buttons);
  EXPECT_TRUE(second.buttons->down[0]);
  EXPECT_EQ(second.buttons->at->y, 250.0f);

  const InputOrder::Frame third = input.take();  // the release of the click
  EXPECT_TRUE(third.keys.empty());
  ASSERT_TRUE(third.buttons);
  EXPECT_FALSE(third.buttons->down[0]);

  const InputOrder::Frame fourth = input.take();  // nothing left: the platform's reading stands
  EXPECT_TRUE(fourth.keys.empty());
  EXPECT_FALSE(fourth.buttons);
}

TEST(InputOrder, KeysBeforeAButtonChangeGoInItsFrameAndEveryButtonKeepsItsState) {
  InputOrder input;
  input.key(kThree);
  input.key(kFive);
  input.button(1, true, {10, 20});  // the right button goes down ...
  input.button(0, true, {30, 40});  // ... then the left, a frame later
  const InputOrder::Frame first = input.take();
  ASSERT_EQ(first.keys.size(), 2u);
  EXPECT_EQ(first.keys[0].key, '3');
  EXPECT_EQ(first.keys[1].key, '5');
  ASSERT_TRUE(first.buttons);
  EXPECT_TRUE(first.buttons->down[1]);
  EXPECT_FALSE(first.buttons->down[0]);
  const InputOrder::Frame second = input.take();
  ASSERT_TRUE(second.buttons);
  EXPECT_TRUE(second.buttons->down[0]);
  EXPECT_TRUE(second.buttons->down[1]);  // still held
  EXPECT_EQ(second.buttons->at->x, 30.0f);
}

TEST(InputOrder, KeysAloneAllGoInOneFrameAndOtherButtonsAreNotTheStudios) {
  InputOrder input;
  input.button(3, true, {0, 0});  // a mouse's side button
  input.button(-1, true, {0, 0});
  input.key(kThree);
  input.key(kFive);
  const InputOrder::Frame frame = input.take();
  EXPECT_EQ(frame.keys.size(), 2u);
  EXPECT_FALSE(frame.buttons);
  EXPECT_TRUE(input.take().keys.empty());
}

TEST(InputOrder, AKeyPressedTwiceIsTakenTwoFramesApart) {
  // Enter, Enter: ImGui reads a key's state once a frame, so it must see the key up in between.
  InputOrder input;
  input.key({'\n', false, false});
  input.key({'\n', false, false});
  EXPECT_EQ(input.take().keys.size(), 1u);
  EXPECT_TRUE(input.take().keys.empty());
  EXPECT_EQ(input.take().keys.size(), 1u);
  EXPECT_TRUE(input.take().keys.empty());
}

TEST(InputOrder, AClickBehindAWaitingKeyIsHeldBackWithIt) {
  // Ctrl+Z twice, then a click: the click is seen after both undos, once.
  InputOrder input;
  const InputOrder::Key undo{'Z', true, false};
  input.key(undo);
  input.key(undo);
  input.button(0, true, {50, 60});
  input.button(0, false, {50, 60});
  std::vector<int> undos, downs;
  for (int frame = 0; frame < 6; ++frame) {
    const InputOrder::Frame f = input.take();
    undos.push_back(static_cast<int>(f.keys.size()));
    ASSERT_TRUE(frame >= 4 || f.buttons) << "frame " << frame << ": the platform's reading would show the click early";
    downs.push_back(f.buttons && f.buttons->down[0] ? 1 : 0);
    if (f.buttons && f.buttons->down[0]) {
      ASSERT_TRUE(f.buttons->at);
      EXPECT_EQ(f.buttons->at->x, 50.0f);
    }
  }
  EXPECT_EQ(undos, (std::vector<int>{1, 0, 1, 0, 0, 0}));
  EXPECT_EQ(downs, (std::vector<int>{0, 0, 1, 0, 0, 0}));
}

}  // namespace
}  // namespace tinkertoy::studio
