#include "entry_points.hpp"

#include <array>

#include "batchnormgrad.h"

namespace bng::test {

namespace {

// Not every target uses every helper (BNG_TARGET_HAS_*).
[[maybe_unused]] float* F(void* p) {
  return static_cast<float*>(p);
}
[[maybe_unused]] int I(long long v) {
  return static_cast<int>(v);
}
[[maybe_unused]] half* H(void* p) {
  return static_cast<half*>(p);
}

[[maybe_unused]] constexpr Sizes kFp{sizeof(float), sizeof(float)};
[[maybe_unused]] constexpr Sizes kHp{sizeof(half), sizeof(half)};
[[maybe_unused]] constexpr Sizes kMp{sizeof(half), sizeof(float)};

constexpr EntryPoint kEntryPoints[] = {
#if BNG_TARGET_HAS_FP
    {"fp_batch_norm_grad_s", "fp", kFp, Form::params, true,
     [](const Call& c) {
       return fp_batch_norm_grad_s(F(c.x), F(c.dy), F(c.dx), c.params, c.core_mask);
     }},
    {"fp_batch_norm_grad_p", "fp", kFp, Form::params, false,
     [](const Call& c) { return fp_batch_norm_grad_p(F(c.x), F(c.dy), F(c.dx), c.params); }},
    {"fp_batchnormgrad_s", "fp", kFp, Form::flat, true,
     [](const Call& c) {
       return fp_batchnormgrad_s(F(c.x), F(c.dy), F(c.mean), F(c.invar), F(c.scale), I(c.batch),
                                 I(c.channel), I(c.is_train), F(c.dx), F(c.dbias), F(c.dscale),
                                 c.core_mask);
     }},
    {"fp_batchnormgrad_p", "fp", kFp, Form::flat, false,
     [](const Call& c) {
       return fp_batchnormgrad_p(F(c.x), F(c.dy), F(c.mean), F(c.invar), F(c.scale), I(c.batch),
                                 I(c.channel), I(c.is_train), F(c.dx), F(c.dbias), F(c.dscale));
     }},
#endif
#if BNG_TARGET_HAS_HP
    {"hp_batch_norm_grad_s", "hp", kHp, Form::params, true,
     [](const Call& c) {
       return hp_batch_norm_grad_s(H(c.x), H(c.dy), H(c.dx), c.params, c.core_mask);
     }},
    {"hp_batch_norm_grad_p", "hp", kHp, Form::params, false,
     [](const Call& c) { return hp_batch_norm_grad_p(H(c.x), H(c.dy), H(c.dx), c.params); }},
    {"hp_batchnormgrad_s", "hp", kHp, Form::flat, true,
     [](const Call& c) {
       return hp_batchnormgrad_s(H(c.x), H(c.dy), H(c.mean), H(c.invar), H(c.scale), I(c.batch),
                                 I(c.channel), I(c.is_train), H(c.dx), H(c.dbias), H(c.dscale),
                                 c.core_mask);
     }},
    {"hp_batchnormgrad_p", "hp", kHp, Form::flat, false,
     [](const Call& c) {
       return hp_batchnormgrad_p(H(c.x), H(c.dy), H(c.mean), H(c.invar), H(c.scale), I(c.batch),
                                 I(c.channel), I(c.is_train), H(c.dx), H(c.dbias), H(c.dscale));
     }},
#endif
#if BNG_TARGET_HAS_MP
    {"mp_batch_norm_grad_s", "mp", kMp, Form::params, true,
     [](const Call& c) {
       return mp_batch_norm_grad_s(H(c.x), H(c.dy), H(c.dx), c.params, c.core_mask);
     }},
    {"mp_batch_norm_grad_p", "mp", kMp, Form::params, false,
     [](const Call& c) { return mp_batch_norm_grad_p(H(c.x), H(c.dy), H(c.dx), c.params); }},
#endif
};

}  // namespace

std::span<const EntryPoint> entry_points() {
  return kEntryPoints;
}

}  // namespace bng::test
