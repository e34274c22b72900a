// bng_status_string: one line of English for every status, distinct for the
// known ones, and a message (not null) for any other value.
#include <gtest/gtest.h>

#include <climits>
#include <cstring>
#include <set>
#include <string>

#include "batchnormgrad.h"
#include "entry_points.hpp"

namespace {

bool one_line(const char* s) {
  return s != nullptr && std::strlen(s) > 0 && std::strchr(s, '\n') == nullptr &&
         std::strchr(s, '\r') == nullptr;
}

TEST(BNG_SUITE(StatusString), EveryKnownStatusHasItsOwnLine) {
  const int known[] = {BNG_OK,       BNG_ERR_NULL,      BNG_ERR_SHAPE,
                       BNG_ERR_FLAG, BNG_ERR_CORE_MASK, BNG_ERR_OVERLAP,
                       BNG_ERR_ALIGN};
  std::set<std::string> seen;
  const std::string unknown = bng_status_string(INT_MIN);
  for (int s : known) {
    const char* text = bng_status_string(s);
    ASSERT_TRUE(one_line(text)) << "status " << s;
    EXPECT_NE(text, unknown) << "status " << s << " reads as unknown";
    EXPECT_TRUE(seen.insert(text).second) << "status " << s << " shares its text: " << text;
  }
}

TEST(BNG_SUITE(StatusString), TheStatusValuesAreTheAbi) {
  // SPEC §3: the values are ABI; a renumbering must fail here.
  EXPECT_EQ(BNG_OK, 0);
  EXPECT_EQ(BNG_ERR_NULL, -1);
  EXPECT_EQ(BNG_ERR_SHAPE, -2);
  EXPECT_EQ(BNG_ERR_FLAG, -3);
  EXPECT_EQ(BNG_ERR_CORE_MASK, -4);
  EXPECT_EQ(BNG_ERR_OVERLAP, -5);
  EXPECT_EQ(BNG_ERR_ALIGN, -6);
}

TEST(BNG_SUITE(StatusString), UnknownStatusesGetAMessageToo) {
  for (int s : {1, -7, 42, -1000, INT_MIN, INT_MAX}) {
    const char* text = bng_status_string(s);
    ASSERT_TRUE(one_line(text)) << "status " << s;
    EXPECT_NE(std::strstr(text, "unknown"), nullptr) << "status " << s << ": " << text;
  }
}

TEST(BNG_SUITE(StatusString), MessagesNameWhatWentWrong) {
  // Each names the argument a caller must look at.
  EXPECT_NE(std::strstr(bng_status_string(BNG_ERR_NULL), "null"), nullptr);
  EXPECT_NE(std::strstr(bng_status_string(BNG_ERR_SHAPE), "batch"), nullptr);
  EXPECT_NE(std::strstr(bng_status_string(BNG_ERR_FLAG), "is_train"), nullptr);
  EXPECT_NE(std::strstr(bng_status_string(BNG_ERR_CORE_MASK), "core mask"), nullptr);
  EXPECT_NE(std::strstr(bng_status_string(BNG_ERR_OVERLAP), "overlap"), nullptr);
  EXPECT_NE(std::strstr(bng_status_string(BNG_ERR_ALIGN), "aligned"), nullptr);
}

}  // namespace
