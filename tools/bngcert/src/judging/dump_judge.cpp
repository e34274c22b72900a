#include "dump_judge.hpp"

#include <algorithm>
#include <vector>

#include "bng/reference/reference.hpp"
#include "parallel_jobs.hpp"

namespace bng::cert {

std::int64_t block_width(const DumpShape& s, std::int64_t block_elements) {
  return std::clamp<std::int64_t>(block_elements / s.batch, 1, s.channel);
}

namespace {

void judge_block(const DumpArrays& a, const DumpShape& s, std::int64_t c0, std::int64_t c1,
                 const Origin& origin, std::uint64_t order, ref::Path reference, KernelTally& t) {
  Case c;
  c.combo = s.combo;
  c.batch = s.batch;
  c.channel = c1 - c0;
  c.is_train = s.is_train;
  a.at("x").read_columns(s.channel, c0, c1, c.x);
  a.at("dy").read_columns(s.channel, c0, c1, c.dy);
  for (auto [name, v] : {std::pair{"mean", &c.mean}, {"invar", &c.invar}, {"scale", &c.scale}}) {
    v->resize(static_cast<std::size_t>(c.channel));
    a.at(name).read(c0, c.channel, v->data());
  }
  Outputs got;
  a.at("dx").read_columns(s.channel, c0, c1, got.dx);
  got.dbias.resize(static_cast<std::size_t>(c.channel));
  got.dscale.resize(static_cast<std::size_t>(c.channel));
  a.at("dbias").read(c0, c.channel, got.dbias.data());
  a.at("dscale").read(c0, c.channel, got.dscale.data());

  const ref::Result r = ref::compute(c, reference);
  Origin o = origin;
  o.channel_offset = c0;
  o.channel_total = s.channel;
  judge(c, r, got, o, order, true, t);
}

}  // namespace

void judge_dump(const DumpArrays& a, const DumpShape& s, const Origin& origin,
                std::uint64_t order_base, std::int64_t block_elements, int jobs,
                ref::Path reference, KernelTally& t, Progress* progress) {
  const std::int64_t width = block_width(s, block_elements);
  const std::int64_t blocks = (s.channel + width - 1) / width;
  std::vector<KernelTally> partial(
      static_cast<std::size_t>(worker_count(jobs, static_cast<std::size_t>(blocks))));
  for (KernelTally& mine : partial) {
    mine.kernel = t.kernel;
    mine.keep_failing = t.keep_failing;
  }
  run_jobs(jobs, static_cast<std::size_t>(blocks), [&](int worker, std::size_t i) {
    const auto b = static_cast<std::int64_t>(i);
    const std::int64_t c0 = b * width, c1 = std::min(s.channel, c0 + width);
    judge_block(a, s, c0, c1, origin, order_base + static_cast<std::uint64_t>(b), reference,
                partial[static_cast<std::size_t>(worker)]);
    if (progress) progress->advance();
  });
  for (auto& p : partial) {
    p.cases = 0;  // the caller counts the case once
    t.merge(std::move(p));
  }
}

}  // namespace bng::cert
