#include "entry_points.hpp"

#include <array>

#include "batchnormgrad.h"

namespace bng::test {

namespace {

float* F(void* p) {
  return static_cast<float*>(p);
}
int I(long long v) {
  return static_cast<int>(v);
}

constexpr Sizes kFp{sizeof(float), sizeof(float)};
#if defined(BNG_TEST_MT7004)
half* H(void* p) {
  return static_cast<half*>(p);
}
constexpr Sizes kHp{sizeof(half), sizeof(half)};
constexpr Sizes kMp{sizeof(half), sizeof(float)};
#endif

constexpr EntryPoint kEntryPoints[] = {
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
#if defined(BNG_TEST_MT7004)
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
