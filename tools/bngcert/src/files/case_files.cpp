#include "case_files.hpp"

#include "output_file.hpp"

namespace bng::cert {

npy::DType dtype_of(Format f) {
  return f == Format::binary16 ? npy::DType::f2 : npy::DType::f4;
}

std::optional<Combo> combo_of(npy::DType data, npy::DType stats) {
  using npy::DType;
  if (data == DType::f4 && stats == DType::f4) return Combo::fp;
  if (data == DType::f2 && stats == DType::f2) return Combo::hp;
  if (data == DType::f2 && stats == DType::f4) return Combo::mp;
  return std::nullopt;
}

void write_case_dir(const std::filesystem::path& dir, const Case& c, const Outputs& got,
                    const nlohmann::json& params) {
  std::filesystem::create_directories(dir);
  const npy::DType data = dtype_of(data_format(c.combo));
  const npy::DType stats = dtype_of(stats_format(c.combo));
  const std::array<std::int64_t, 2> matrix = {c.batch, c.channel};
  const std::array<std::int64_t, 1> vector = {c.channel};
  npy::write(dir / "x.npy", data, matrix, c.x);
  npy::write(dir / "dy.npy", data, matrix, c.dy);
  npy::write(dir / "mean.npy", stats, vector, c.mean);
  npy::write(dir / "invar.npy", stats, vector, c.invar);
  npy::write(dir / "scale.npy", stats, vector, c.scale);
  npy::write(dir / "dx.npy", data, matrix, got.dx);
  npy::write(dir / "dbias.npy", stats, vector, got.dbias);
  npy::write(dir / "dscale.npy", stats, vector, got.dscale);
  write_text(dir / "params.json", params.dump(2) + "\n");
}

}  // namespace bng::cert
