/*
 * MT7004 half precision: a training step with mp_batch_norm_grad_s (half
 * activations and gradients, float statistics and parameter gradients: the
 * recommended form for training) and an inference step with
 * hp_batch_norm_grad_p (everything half). Link with batchnormgrad_mt7004.
 *
 * `half` is _Float16 where the compiler has it (gcc 12) and a struct holding
 * the 16 bits elsewhere (clang 14); the two helpers below hide the difference.
 */
#include <batchnormgrad.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if BNG_HALF_IS_FLOAT16
static half to_half(float f) {
  return (half)f;
}
static float from_half(half h) {
  return (float)h;
}
#else
/* IEEE binary16 from float, rounded to nearest even. */
static half to_half(float f) {
  uint32_t x;
  memcpy(&x, &f, sizeof x);
  uint16_t sign = (uint16_t)((x >> 16) & 0x8000u);
  uint32_t a = x & 0x7fffffffu;
  uint16_t bits;
  if (a > 0x7f800000u) {
    bits = 0x7e00u; /* NaN */
  } else if (a >= 0x477ff000u) {
    bits = 0x7c00u; /* 65520 and above round to infinity */
  } else if (a < 0x38800000u) {
    /* Below 2^-14: adding 0.5 rounds to a multiple of 2^-24, the subnormal step. */
    float s;
    memcpy(&s, &a, sizeof s);
    s += 0.5f;
    uint32_t sb;
    memcpy(&sb, &s, sizeof sb);
    bits = (uint16_t)(sb - 0x3f000000u);
  } else {
    a += 0xfffu + ((a >> 13) & 1u);             /* round the 13 dropped bits to even */
    bits = (uint16_t)((a - 0x38000000u) >> 13); /* exponent bias 127 -> 15 */
  }
  half h;
  h.bits = (unsigned short)(sign | bits);
  return h;
}
static float from_half(half h) {
  int e = (h.bits >> 10) & 0x1f;
  int m = h.bits & 0x3ff;
  float v = e == 0    ? ldexpf((float)m, -24)
            : e == 31 ? (m ? NAN : INFINITY)
                      : ldexpf((float)(m | 0x400), e - 25);
  return (h.bits & 0x8000u) ? -v : v;
}
#endif

int main(void) {
  int batch = 64; /* for [N][H][W][C] data, batch = N*H*W */
  int channel = 16;
  size_t n = (size_t)batch * (size_t)channel;

  half* x = malloc(n * sizeof *x);
  half* dy = malloc(n * sizeof *dy);
  half* dx = malloc(n * sizeof *dx);
  float* mean = malloc(channel * sizeof *mean);
  float* invar = malloc(channel * sizeof *invar);
  float* scale = malloc(channel * sizeof *scale);
  float* dbias = malloc(channel * sizeof *dbias);
  float* dscale = malloc(channel * sizeof *dscale);
  if (!x || !dy || !dx || !mean || !invar || !scale || !dbias || !dscale) return 1;

  for (int c = 0; c < channel; ++c) {
    float sum = 0.0f, sq = 0.0f;
    for (int b = 0; b < batch; ++b) {
      float v = sinf(0.37f * (float)(b * channel + c)) * (1.0f + 0.1f * (float)c);
      x[b * channel + c] = to_half(v);
      dy[b * channel + c] = to_half(cosf(0.11f * (float)(b + 3 * c)) * 0.01f);
      sum += from_half(x[b * channel + c]);
    }
    mean[c] = sum / (float)batch;
    for (int b = 0; b < batch; ++b) {
      float d = from_half(x[b * channel + c]) - mean[c];
      sq += d * d;
    }
    invar[c] = 1.0f / sqrtf(sq / (float)batch + 1e-5f);
    scale[c] = 1.0f;
  }

  /* Training, mixed precision: params[0..4] are float pointers. */
  long long params[12];
  params[0] = (long long)mean;
  params[1] = (long long)invar;
  params[2] = (long long)scale;
  params[3] = (long long)dbias;
  params[4] = (long long)dscale;
  params[5] = batch;
  params[6] = channel;
  params[7] = 1; /* is_train */
  int status = mp_batch_norm_grad_s(x, dy, dx, params, 0x0f /* cores 0..3 */);
  if (status != BNG_OK) {
    fprintf(stderr, "mp_batch_norm_grad_s: %s (%d)\n", bng_status_string(status), status);
    return 1;
  }
  printf("mp training : dx[0] = %g, dbias[0] = %g, dscale[0] = %g\n", from_half(dx[0]), dbias[0],
         dscale[0]);

  /* Inference, everything half: params[0..4] are half pointers. dx may
   * overwrite dy in place (dx == dy is one of the two allowed in-place forms). */
  half* hmean = malloc(channel * sizeof *hmean);
  half* hinvar = malloc(channel * sizeof *hinvar);
  half* hscale = malloc(channel * sizeof *hscale);
  half* hdbias = malloc(channel * sizeof *hdbias);
  half* hdscale = malloc(channel * sizeof *hdscale);
  if (!hmean || !hinvar || !hscale || !hdbias || !hdscale) return 1;
  for (int c = 0; c < channel; ++c) {
    hmean[c] = to_half(mean[c]);
    hinvar[c] = to_half(invar[c]);
    hscale[c] = to_half(scale[c]);
  }
  params[0] = (long long)hmean;
  params[1] = (long long)hinvar;
  params[2] = (long long)hscale;
  params[3] = (long long)hdbias;
  params[4] = (long long)hdscale;
  params[7] = 0; /* is_train */
  status = hp_batch_norm_grad_p(x, dy, dy, params);
  if (status != BNG_OK) {
    fprintf(stderr, "hp_batch_norm_grad_p: %s (%d)\n", bng_status_string(status), status);
    return 1;
  }
  printf("hp inference: dx[0] = %g, dbias[0] = %g, dscale[0] = %g\n", from_half(dy[0]),
         from_half(hdbias[0]), from_half(hdscale[0]));

  free(x), free(dy), free(dx), free(mean), free(invar), free(scale), free(dbias), free(dscale);
  free(hmean), free(hinvar), free(hscale), free(hdbias), free(hdscale);
  return 0;
}
