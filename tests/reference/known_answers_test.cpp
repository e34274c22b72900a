// Hand-computed answers (tests/data/reference/known_answers.txt, where each is
// worked out in a comment) against the reference.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "bng/reference/reference.hpp"
#include "show.hpp"

namespace bng::ref {
namespace {

struct KnownCase {
  std::string name;
  Case input;
  std::vector<std::string> dbias, dscale, dx;
  std::vector<double> dx_magnitude;
};

double parse_number(const std::string& word) {
  char* end = nullptr;
  const double v = std::strtod(word.c_str(), &end);  // hex floats, inf, nan
  if (end == word.c_str() || *end != '\0') throw std::runtime_error("bad number: " + word);
  return v;
}

Combo parse_combo(const std::string& s) {
  if (s == "fp") return Combo::fp;
  if (s == "hp") return Combo::hp;
  if (s == "mp") return Combo::mp;
  throw std::runtime_error("bad combo: " + s);
}

std::vector<KnownCase> load(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot open " + path);
  std::vector<KnownCase> cases;
  std::string line;
  KnownCase* cur = nullptr;
  while (std::getline(in, line)) {
    std::istringstream words(line);
    std::string key;
    if (!(words >> key) || key[0] == '#') continue;
    std::vector<std::string> rest;
    for (std::string w; words >> w;) rest.push_back(w);
    if (key == "case") {
      cases.emplace_back();
      cur = &cases.back();
      cur->name = rest.at(0);
      cur->input.combo = parse_combo(rest.at(1));
      cur->input.is_train = rest.at(2) == "train" ? 1 : 0;
      cur->input.batch = std::stoll(rest.at(3));
      cur->input.channel = std::stoll(rest.at(4));
      continue;
    }
    if (cur == nullptr) throw std::runtime_error("data before `case`: " + line);
    std::vector<double> values;
    auto numbers = [&] {
      for (const std::string& w : rest) values.push_back(parse_number(w));
      return values;
    };
    if (key == "x")
      cur->input.x = numbers();
    else if (key == "dy")
      cur->input.dy = numbers();
    else if (key == "mean")
      cur->input.mean = numbers();
    else if (key == "invar")
      cur->input.invar = numbers();
    else if (key == "scale")
      cur->input.scale = numbers();
    else if (key == "dbias")
      cur->dbias = rest;
    else if (key == "dscale")
      cur->dscale = rest;
    else if (key == "dx")
      cur->dx = rest;
    else if (key == "dx_magnitude")
      cur->dx_magnitude = numbers();
    else if (key == "end")
      cur = nullptr;
    else
      throw std::runtime_error("unknown key: " + key);
  }
  return cases;
}

// One expected output word against the reference's entry.
void check(const std::string& want, const Expected& got, Format f, const std::string& where) {
  SCOPED_TRACE(where + ": expected " + want + ", reference " + test::show(got, f));
  if (want == "nan") {
    EXPECT_EQ(got.kind, Kind::nan);
  } else if (want == "nonfinite") {
    EXPECT_EQ(got.kind, Kind::nonfinite);
  } else {
    EXPECT_EQ(got.kind, Kind::finite);
    EXPECT_EQ(got.rounded, parse_number(want));
  }
}

TEST(ReferenceKnownAnswers, HandComputedCases) {
  const std::vector<KnownCase> cases = load(BNG_REFERENCE_DATA_DIR "/known_answers.txt");
  ASSERT_GE(cases.size(), 9u);
  for (const KnownCase& k : cases) {
    SCOPED_TRACE("case " + k.name);
    const Result r = compute(k.input);
    const Format df = data_format(k.input.combo), sf = stats_format(k.input.combo);
    ASSERT_EQ(k.dx.size(), r.dx.size());
    ASSERT_EQ(k.dbias.size(), r.dbias.size());
    ASSERT_EQ(k.dscale.size(), r.dscale.size());
    for (std::size_t i = 0; i < k.dx.size(); ++i)
      check(k.dx[i], r.dx[i], df, "dx[" + std::to_string(i) + "]");
    for (std::size_t i = 0; i < k.dbias.size(); ++i) {
      check(k.dbias[i], r.dbias[i], sf, "dbias[" + std::to_string(i) + "]");
      check(k.dscale[i], r.dscale[i], sf, "dscale[" + std::to_string(i) + "]");
    }
    for (std::size_t i = 0; i < k.dx_magnitude.size(); ++i) {
      EXPECT_EQ(r.dx[i].magnitude, static_cast<long double>(k.dx_magnitude[i]))
          << "dx_magnitude[" << i << "]";
    }
  }
}

}  // namespace
}  // namespace bng::ref
