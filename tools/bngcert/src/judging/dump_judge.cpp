#include "dump_judge.hpp"

#include <algorithm>
#include <utility>
#include <vector>

#include "bng/reference/reference.hpp"
#include "call_judge.hpp"
#include "parallel_jobs.hpp"

namespace bng::cert {

std::int64_t block_width(const DumpShape& s, std::int64_t block_elements) {
  return std::clamp<std::int64_t>(block_elements / s.batch, 1, s.channel);
}

namespace {

// A row's bytes come from memory a cache line at a time. A block narrower than
// a line (a tall call: one channel of 262144 rows is already 2^18 elements)
// would read a whole line of each row for a few bytes of it, and the next
// block the same lines again: x, dy and dx are read for a band of blocks at
// once, each row's part in one pass, column by column. A band holds at most
// kMaxBandBlocks blocks and kMaxBandElements elements (memory: the band's
// three arrays as doubles, 24 bytes an element, about 100 MB a thread; a
// single block above that, a channel of batch 2^24 say, is a band of its
// own), and there are at least two bands a worker while the blocks allow.
constexpr std::int64_t kLineBytes = 64;
constexpr std::int64_t kMaxBandBlocks = 16;
constexpr std::int64_t kMaxBandElements = std::int64_t{1} << 22;

std::int64_t blocks_per_band(const DumpArrays& a, const DumpShape& s, std::int64_t width,
                             std::int64_t blocks, int jobs) {
  const auto item = static_cast<std::int64_t>(npy::item_size(a.at("x").header().dtype));
  const std::int64_t fits = kMaxBandElements / (width * s.batch);
  std::int64_t k =
      std::clamp<std::int64_t>(std::min(kLineBytes / (item * width), fits), 1, kMaxBandBlocks);
  while (k > 1 && (blocks + k - 1) / k < 2 * static_cast<std::int64_t>(jobs)) k /= 2;
  return k;
}

// The columns of one band: column by column (a vector a column) when it
// holds several blocks, as rows (the Case layout) when it is one block.
struct Band {
  std::int64_t c0 = 0, c1 = 0;
  bool by_column = false;
  std::vector<double> x, dy, dx;                                       // as rows
  std::vector<std::vector<double>> x_columns, dy_columns, dx_columns;  // by column
  void read(const DumpArrays& a, std::int64_t channel) {
    if (by_column) {
      for (auto [name, v] :
           {std::pair{"x", &x_columns}, {"dy", &dy_columns}, {"dx", &dx_columns}}) {
        a.at(name).read_columns_transposed(channel, c0, c1, *v);
      }
    } else {
      for (auto [name, v] : {std::pair{"x", &x}, {"dy", &dy}, {"dx", &dx}}) {
        a.at(name).read_columns(channel, c0, c1, *v);
      }
    }
  }
  // Channels [b0, b1) of the band as rows of b1 - b0 (the Case layout): a
  // band of one block hands its rows over, and a block of one column its
  // column (each taking out's storage back for the next band).
  void rows_of(std::vector<double>& rows, std::vector<std::vector<double>>& columns,
               std::int64_t batch, std::int64_t b0, std::int64_t b1, std::vector<double>& out) {
    if (!by_column) {
      std::swap(out, rows);
      return;
    }
    const std::int64_t w = b1 - b0;
    if (w == 1) {  // a column is its own rows (a tall dump's blocks)
      std::swap(out, columns[static_cast<std::size_t>(b0 - c0)]);
      return;
    }
    out.resize(static_cast<std::size_t>(batch * w));
    for (std::int64_t j = 0; j < w; ++j) {
      const std::vector<double>& column = columns[static_cast<std::size_t>(b0 - c0 + j)];
      for (std::int64_t n = 0; n < batch; ++n) out[n * w + j] = column[n];
    }
  }
};

// What a worker judges a block with, kept from one block to the next: a
// block's case, outputs and reference results come to tens of megabytes, and
// allocating them afresh each time had the kernel zero their pages again
// (page faults and memset were 7 % of `check`).
struct Workspace {
  Band band;
  Case c;
  Outputs got;
  ref::Result r;
};

void judge_block(const DumpArrays& a, const DumpShape& s, Workspace& w, std::int64_t c0,
                 std::int64_t c1, const Origin& origin, std::uint64_t order, ref::Path reference,
                 KernelTally& t) {
  Case& c = w.c;
  c.combo = s.combo;
  c.batch = s.batch;
  c.channel = c1 - c0;
  c.is_train = s.is_train;
  w.band.rows_of(w.band.x, w.band.x_columns, s.batch, c0, c1, c.x);
  w.band.rows_of(w.band.dy, w.band.dy_columns, s.batch, c0, c1, c.dy);
  for (auto [name, v] : {std::pair{"mean", &c.mean}, {"invar", &c.invar}, {"scale", &c.scale}}) {
    v->resize(static_cast<std::size_t>(c.channel));
    a.at(name).read(c0, c.channel, v->data());
  }
  Outputs& got = w.got;
  w.band.rows_of(w.band.dx, w.band.dx_columns, s.batch, c0, c1, got.dx);
  got.dbias.resize(static_cast<std::size_t>(c.channel));
  got.dscale.resize(static_cast<std::size_t>(c.channel));
  a.at("dbias").read(c0, c.channel, got.dbias.data());
  a.at("dscale").read(c0, c.channel, got.dscale.data());

  Origin o = origin;
  o.channel_offset = c0;
  o.channel_total = s.channel;
  // Each chunk of dx judged as the reference hands it over, while it is in the cache.
  CallJudge judge(c, got, o, order, true, t);
  ref::compute(c, reference, w.r,
               [&](std::int64_t n0, std::int64_t n1) { judge.dx_rows(w.r, n0, n1); });
  judge.finish(w.r);
}

}  // namespace

void judge_dump(const DumpArrays& a, const DumpShape& s, const Origin& origin,
                std::uint64_t order_base, std::int64_t block_elements, int jobs,
                ref::Path reference, KernelTally& t, Progress* progress) {
  const std::int64_t width = block_width(s, block_elements);
  const std::int64_t blocks = (s.channel + width - 1) / width;
  const std::int64_t per_band = blocks_per_band(a, s, width, blocks, jobs_or_default(jobs));
  const std::int64_t bands = (blocks + per_band - 1) / per_band;
  std::vector<KernelTally> partial(
      static_cast<std::size_t>(worker_count(jobs, static_cast<std::size_t>(bands))));
  for (KernelTally& mine : partial) {
    mine.kernel = t.kernel;
    mine.keep_failing = t.keep_failing;
  }
  std::vector<Workspace> workspaces(partial.size());
  run_jobs(jobs, static_cast<std::size_t>(bands), [&](int worker, std::size_t i) {
    const auto first = static_cast<std::int64_t>(i) * per_band;
    const std::int64_t last = std::min(blocks, first + per_band);
    Workspace& w = workspaces[static_cast<std::size_t>(worker)];
    w.band.c0 = first * width;
    w.band.c1 = std::min(s.channel, last * width);
    w.band.by_column = per_band > 1;
    w.band.read(a, s.channel);
    for (std::int64_t b = first; b < last; ++b) {
      const std::int64_t c0 = b * width, c1 = std::min(s.channel, c0 + width);
      judge_block(a, s, w, c0, c1, origin, order_base + static_cast<std::uint64_t>(b), reference,
                  partial[static_cast<std::size_t>(worker)]);
      if (progress) progress->advance();
    }
  });
  for (auto& p : partial) {
    p.cases = 0;  // the caller counts the case once
    t.merge(std::move(p));
  }
}

}  // namespace bng::cert
