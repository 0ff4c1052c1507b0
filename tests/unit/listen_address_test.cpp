// The exporter's listen address checked as an address (issue 35): every spelling the system's resolver takes
// for the unspecified address (0.0.0.0, ::, ::ffff:0.0.0.0) listens on every interface and so needs
// --listen-all; before, only the strings "0.0.0.0", "::" and "*" were refused.
#include <gtest/gtest.h>

#include "cli/monitor_settings.h"
#include "platform/tcp_socket.h"

namespace gpudoctor {
namespace {

const char* const kEveryInterfaceSpellings[] = {"0.0.0.0:9400",
                                                "0:9400",
                                                "0.0:9400",
                                                "0x0:9400",
                                                "000.000.000.000:9400",
                                                "0.0.0:9400",
                                                "[::]:9400",
                                                "[::0]:9400",
                                                "[0:0:0:0:0:0:0:0]:9400",
                                                "[::ffff:0.0.0.0]:9400",
                                                "*:9400",
                                                "[0::]:9400",
                                                "[::0.0.0.0]:9400"};

TEST(ListenAddress, EverySpellingOfTheUnspecifiedAddressNeedsListenAll) {
  for (const char* text : kEveryInterfaceSpellings) {
    auto refused = ParseListenAddress(text, false);
    ASSERT_FALSE(refused.ok()) << text << " was accepted without --listen-all";
    EXPECT_NE(refused.error().message.find("every network interface"), std::string::npos) << text;
    EXPECT_NE(refused.error().hint.find("--listen-all"), std::string::npos) << text;
    EXPECT_TRUE(ParseListenAddress(text, true).ok()) << text << " refused even with --listen-all";
  }
}

TEST(ListenAddress, OneAddressOfThisMachineNeedsNoListenAll) {
  for (const char* text : {"127.0.0.1:9400", "[::1]:9400", "127.0.0.2:9400", "9400", ":9400",
                           "[::ffff:127.0.0.1]:9400", "0.0.0.1:9400", "[::2]:9400", "localhost:9400"})
    EXPECT_TRUE(ParseListenAddress(text, false).ok()) << text;
}

TEST(ListenAddress, AHostThatDoesNotResolveIsRefusedWithTheAddressNamed) {
  auto bad = ParseListenAddress("no-such-host.invalid:9400", false);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().message.find("no-such-host.invalid:9400"), std::string::npos) << bad.error().message;
}

TEST(ListenAddress, UnspecifiedAddressBytes) {
  const unsigned char v4_any[4] = {0, 0, 0, 0}, v4_one[4] = {0, 0, 0, 1};
  unsigned char v6[16] = {};
  EXPECT_TRUE(IsUnspecifiedAddressBytes(v4_any, 4));
  EXPECT_FALSE(IsUnspecifiedAddressBytes(v4_one, 4));
  EXPECT_TRUE(IsUnspecifiedAddressBytes(v6, 16));
  v6[10] = v6[11] = 0xff;  // ::ffff:0.0.0.0
  EXPECT_TRUE(IsUnspecifiedAddressBytes(v6, 16));
  v6[15] = 1;  // ::ffff:0.0.0.1
  EXPECT_FALSE(IsUnspecifiedAddressBytes(v6, 16));
  EXPECT_FALSE(IsUnspecifiedAddressBytes(v6, 3));
}

}  // namespace
}  // namespace gpudoctor
