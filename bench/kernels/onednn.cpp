// oneDNN 2.6 f32 batch-normalization backward (prop_kind::backward, so dx,
// diff_scale and diff_shift, as ours computes dx, dscale and dbias) on the
// very buffers our kernels use. Its NC data are described two ways: as a 4-D
// N x C x 1 x 1 tensor in nhwc (same bytes; selects its JIT implementation)
// and as a 2-D nc tensor (selects its generic one). Training mode computes
// dx from the batch statistics; use_global_stats is oneDNN's inference mode.
#include <benchmark/benchmark.h>
#include <omp.h>

#include <dnnl.hpp>
#include <string>
#include <unordered_map>

#include "competitors.hpp"
#include "workload.hpp"

namespace bng::bench {
namespace {

enum class Layout { nhwc, nc };

using dnnl::memory;
using dnnl::normalization_flags;
using dnnl::prop_kind;

memory::desc data_desc(Layout layout, Shape s) {
  if (layout == Layout::nhwc)
    return memory::desc({s.batch, s.channel, 1, 1}, memory::data_type::f32,
                        memory::format_tag::nhwc);
  return memory::desc({s.batch, s.channel}, memory::data_type::f32, memory::format_tag::nc);
}

void run(benchmark::State& state, Layout layout, Shape s, Mode m, int threads) {
  // oneDNN sizes its work split from the OpenMP thread count seen when the
  // primitive is created and run, so set it before either.
  omp_set_num_threads(threads);
  Workload& w = workload(s, DataType::f32);
  try {
    const dnnl::engine engine(dnnl::engine::kind::cpu, 0);
    dnnl::stream stream(engine);
    normalization_flags flags = normalization_flags::use_scale | normalization_flags::use_shift;
    if (m == Mode::infer) flags = flags | normalization_flags::use_global_stats;
    const memory::desc md = data_desc(layout, s);
    const dnnl::batch_normalization_forward::primitive_desc hint(
        {prop_kind::forward_training, md, kEpsilon, flags}, engine);
    const dnnl::batch_normalization_backward::primitive_desc pd(
        {prop_kind::backward, md, md, kEpsilon, flags}, engine, hint);
    const dnnl::batch_normalization_backward primitive(pd);

    const memory::desc channel_md({s.channel}, memory::data_type::f32, memory::format_tag::x);
    std::unordered_map<int, memory> args{
        {DNNL_ARG_SRC, memory(pd.src_desc(), engine, w.x.get())},
        {DNNL_ARG_DIFF_DST, memory(pd.diff_dst_desc(), engine, w.dy.get())},
        {DNNL_ARG_DIFF_SRC, memory(pd.diff_src_desc(), engine, w.dx.get())},
        {DNNL_ARG_MEAN, memory(pd.mean_desc(), engine, w.mean.data())},
        {DNNL_ARG_VARIANCE, memory(pd.variance_desc(), engine, w.variance.data())},
        {DNNL_ARG_SCALE, memory(channel_md, engine, w.scale.data())},
        {DNNL_ARG_SHIFT, memory(channel_md, engine, w.shift.data())},
        {DNNL_ARG_DIFF_SCALE, memory(channel_md, engine, w.dscale.data())},
        {DNNL_ARG_DIFF_SHIFT, memory(channel_md, engine, w.dbias.data())}};
    // Scratch the implementation asks for is allocated here, outside timing.
    if (pd.workspace_desc().get_size() != 0)
      args.emplace(DNNL_ARG_WORKSPACE, memory(pd.workspace_desc(), engine));

    if (wants_warm_up(s)) {
      primitive.execute(stream, args);
      stream.wait();
    }
    for (auto _ : state) {
      primitive.execute(stream, args);
      stream.wait();
      benchmark::ClobberMemory();
    }
    state.SetLabel(pd.impl_info_str());
  } catch (const dnnl::error& e) {
    state.SkipWithError(e.what());
    return;
  }
  state.SetBytesProcessed(state.iterations() * compulsory_bytes(s, 4, 4));
  state.SetItemsProcessed(state.iterations() * s.elements());
}

void add(Layout layout, Shape s, Mode m, int threads) {
  const char* name = layout == Layout::nhwc ? "onednn_nhwc" : "onednn_nc";
  auto* b =
      benchmark::RegisterBenchmark(benchmark_name(name, s, threads, mode_name(m)).c_str(),
                                   [=](benchmark::State& st) { run(st, layout, s, m, threads); })
          ->UseRealTime()
          ->Unit(benchmark::kMicrosecond);
  // The generic path takes 5-20 s per call on the two largest shapes: one
  // such call already averages over thousands of scheduler slices, and five
  // of them would be half of the whole run.
  if (layout == Layout::nc && !wants_warm_up(s)) b->Repetitions(1);
}

}  // namespace

void register_onednn(Shape s, Mode m, int threads) {
  add(Layout::nhwc, s, m, threads);
  add(Layout::nc, s, m, threads);
}

}  // namespace bng::bench
