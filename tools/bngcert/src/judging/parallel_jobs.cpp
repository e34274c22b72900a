#include "parallel_jobs.hpp"

namespace bng::cert {

int default_jobs() {
  return static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
}

}  // namespace bng::cert
